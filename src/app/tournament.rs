//! The arithmetic of leagues, without a database: round-robin schedules,
//! Swiss pairings and standings (points, Sonneborn-Berger, direct
//! encounter). Players are indices into the caller's list.

/// One pairing of a round: sente, gote (`None`: a bye).
pub type Pair = (usize, Option<usize>);

/// Every round of a round robin of `n` players (Berger's circle; with an
/// odd `n`, each player sits out one round). `double`: a second cycle with
/// colours swapped. Colours are balanced: in each cycle a player has sente
/// in half their games, give or take one.
#[must_use]
pub fn round_robin(n: usize, double: bool) -> Vec<Vec<Pair>> {
    if n < 2 {
        return Vec::new();
    }
    // An even number of seats; the last seat is the bye when `n` is odd.
    let seats = n + n % 2;
    let m = seats - 1;
    let mut rounds = Vec::with_capacity(m);
    for r in 0..m {
        let mut pairs = Vec::with_capacity(seats / 2);
        // The seat that meets the fixed seat `m` this round: 2i ≡ r (mod m).
        let pivot = (0..m).find(|&i| (2 * i) % m == r).unwrap_or(0);
        // The fixed seat alternates colours from round to round.
        let (s, g) = if r % 2 == 0 { (pivot, m) } else { (m, pivot) };
        pairs.push((s, g));
        for i in 0..m {
            let j = (r + m - i) % m;
            if i < j && i != pivot {
                // A regular tournament: i has sente against j when j lies in
                // the half of the circle after i.
                let d = (j + m - i) % m;
                pairs.push(if d <= m / 2 { (i, j) } else { (j, i) });
            }
        }
        rounds.push(
            pairs
                .into_iter()
                .map(|(a, b)| seat_pair(a, b, n))
                .collect::<Vec<_>>(),
        );
    }
    if double {
        let second: Vec<Vec<Pair>> = rounds
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|&(s, g)| match g {
                        Some(g) => (g, Some(s)),
                        None => (s, None),
                    })
                    .collect()
            })
            .collect();
        rounds.extend(second);
    }
    for round in &mut rounds {
        // Byes last, so boards 1.. are the games.
        round.sort_by_key(|p| p.1.is_none());
    }
    rounds
}

/// A pair of seats as players: the seat `n` (odd `n`) is the bye.
fn seat_pair(a: usize, b: usize, n: usize) -> Pair {
    if a == n {
        (b, None)
    } else if b == n {
        (a, None)
    } else {
        (a, Some(b))
    }
}

/// What the Swiss pairing knows of a player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SwissPlayer {
    /// Points so far, in halves.
    pub halves: i64,
    /// Rating (ties on points: the stronger first).
    pub rating: f64,
    /// Opponents met so far.
    pub met: Vec<usize>,
    /// Games with sente minus games with gote.
    pub balance: i64,
    /// Colour of the last game: `Some(true)` sente.
    pub last_sente: Option<bool>,
    /// Whether they had a bye already.
    pub had_bye: bool,
    /// Withdrawn: not paired any more.
    pub withdrawn: bool,
}

/// Most steps of the search for a pairing without rematches; beyond it,
/// rematches are allowed (a league with more rounds than opponents).
const SWISS_BUDGET: usize = 200_000;

/// The next Swiss round: players ranked by points then rating, each paired
/// with the next one they have not met (backtracking when that leaves
/// someone unpaired); with an odd number, the lowest-ranked player without
/// a bye so far gets one. Colours: the player with more gote games (or who
/// had gote last) gets sente.
#[must_use]
pub fn swiss(players: &[SwissPlayer]) -> Vec<Pair> {
    let mut order: Vec<usize> = (0..players.len())
        .filter(|&i| !players[i].withdrawn)
        .collect();
    order.sort_by(|&a, &b| {
        players[b]
            .halves
            .cmp(&players[a].halves)
            .then(players[b].rating.total_cmp(&players[a].rating))
            .then(a.cmp(&b))
    });
    let mut bye = None;
    if order.len() % 2 == 1 {
        let pick = order
            .iter()
            .rposition(|&i| !players[i].had_bye)
            .unwrap_or(order.len() - 1);
        bye = Some(order.remove(pick));
    }
    let mut budget = SWISS_BUDGET;
    let mut pairs = Vec::new();
    let found = pair_without_rematch(
        players,
        &order,
        &mut vec![false; order.len()],
        &mut pairs,
        &mut budget,
    );
    if !found {
        pairs = order.chunks(2).map(|c| (c[0], c[1])).collect();
    }
    let mut out: Vec<Pair> = pairs
        .into_iter()
        .map(|(a, b)| {
            let (pa, pb) = (&players[a], &players[b]);
            let a_sente = match pa.balance.cmp(&pb.balance) {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Greater => false,
                std::cmp::Ordering::Equal => match (pa.last_sente, pb.last_sente) {
                    (Some(x), Some(y)) if x != y => !x,
                    (Some(x), None) => !x,
                    (None, Some(y)) => y,
                    _ => true,
                },
            };
            if a_sente {
                (a, Some(b))
            } else {
                (b, Some(a))
            }
        })
        .collect();
    if let Some(b) = bye {
        out.push((b, None));
    }
    out
}

fn pair_without_rematch(
    players: &[SwissPlayer],
    order: &[usize],
    used: &mut Vec<bool>,
    pairs: &mut Vec<(usize, usize)>,
    budget: &mut usize,
) -> bool {
    let Some(first) = used.iter().position(|u| !u) else {
        return true;
    };
    used[first] = true;
    for k in first + 1..order.len() {
        if used[k] || players[order[first]].met.contains(&order[k]) {
            continue;
        }
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        used[k] = true;
        pairs.push((order[first], order[k]));
        if pair_without_rematch(players, order, used, pairs, budget) {
            return true;
        }
        pairs.pop();
        used[k] = false;
    }
    used[first] = false;
    false
}

/// How a pairing ended, as the standings count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Sente won (a bye: its player scores).
    Sente,
    /// Gote won.
    Gote,
    /// Drawn.
    Draw,
    /// Nobody scores (both withdrew, a round-robin bye).
    Nobody,
}

impl Score {
    /// From the stored name.
    #[must_use]
    pub fn from_name(s: &str) -> Option<Score> {
        match s {
            "sente" => Some(Score::Sente),
            "gote" => Some(Score::Gote),
            "draw" => Some(Score::Draw),
            "none" | "aborted" => Some(Score::Nobody),
            _ => None,
        }
    }

    /// Halves scored by sente and by gote.
    const fn halves(self) -> (i64, i64) {
        match self {
            Score::Sente => (2, 0),
            Score::Gote => (0, 2),
            Score::Draw => (1, 1),
            Score::Nobody => (0, 0),
        }
    }
}

/// A decided pairing: sente, gote (`None`: a bye), how it ended.
pub type Decided = (usize, Option<usize>, Score);

/// A line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Place (shared when points, Sonneborn-Berger and direct encounter are equal).
    pub place: usize,
    /// The player (index).
    pub player: usize,
    /// Points in halves.
    pub halves: i64,
    /// Sonneborn-Berger in quarters: the points of each beaten opponent,
    /// and half those of each drawn one.
    pub sb_quarters: i64,
    /// Games won, drawn, lost (byes not counted).
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

/// The standings of `n` players after `results`: by points, then
/// Sonneborn-Berger, then the points scored against the other players of
/// the same points and Sonneborn-Berger (direct encounter), then by index
/// (the caller's seeding order).
#[must_use]
pub fn standings(n: usize, results: &[Decided]) -> Vec<Standing> {
    let mut halves = vec![0i64; n];
    let mut wdl = vec![(0i64, 0i64, 0i64); n];
    for &(s, g, score) in results {
        let (hs, hg) = score.halves();
        if s < n {
            halves[s] += hs;
        }
        if let Some(g) = g.filter(|&g| g < n && s < n) {
            halves[g] += hg;
            if score != Score::Nobody {
                for (p, h) in [(s, hs), (g, hg)] {
                    match h {
                        2 => wdl[p].0 += 1,
                        1 => wdl[p].1 += 1,
                        _ => wdl[p].2 += 1,
                    }
                }
            }
        }
    }
    let mut sb = vec![0i64; n];
    for &(s, g, score) in results {
        let Some(g) = g.filter(|&g| g < n && s < n) else {
            continue;
        };
        let (hs, hg) = score.halves();
        sb[s] += hs * halves[g];
        sb[g] += hg * halves[s];
    }
    let key = |p: usize| (halves[p], sb[p]);
    let direct = |p: usize| -> i64 {
        results
            .iter()
            .filter_map(|&(s, g, score)| {
                let g = g?;
                let (hs, hg) = score.halves();
                if s == p && key(g) == key(p) {
                    Some(hs)
                } else if g == p && key(s) == key(p) {
                    Some(hg)
                } else {
                    None
                }
            })
            .sum()
    };
    let de: Vec<i64> = (0..n).map(direct).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        (halves[b], sb[b], de[b])
            .cmp(&(halves[a], sb[a], de[a]))
            .then(a.cmp(&b))
    });
    let mut out: Vec<Standing> = Vec::with_capacity(n);
    for (i, &p) in order.iter().enumerate() {
        let place = match out.last() {
            Some(prev)
                if (prev.halves, prev.sb_quarters, de[prev.player])
                    == (halves[p], sb[p], de[p]) =>
            {
                prev.place
            }
            _ => i + 1,
        };
        out.push(Standing {
            place,
            player: p,
            halves: halves[p],
            sb_quarters: sb[p],
            wins: wdl[p].0,
            draws: wdl[p].1,
            losses: wdl[p].2,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_round_robin(n: usize, double: bool) {
        let rounds = round_robin(n, double);
        let cycles = if double { 2 } else { 1 };
        assert_eq!(rounds.len(), cycles * (n - 1 + n % 2), "n = {n}");
        let mut met = vec![vec![0usize; n]; n];
        let mut sente = vec![0usize; n];
        for round in &rounds {
            let mut seen = vec![false; n];
            for &(s, g) in round {
                assert!(!seen[s], "n = {n}: {s} twice in a round");
                seen[s] = true;
                if let Some(g) = g {
                    assert!(!seen[g]);
                    seen[g] = true;
                    met[s][g] += 1;
                    met[g][s] += 1;
                    sente[s] += 1;
                }
            }
            assert!(
                seen.iter().all(|&x| x),
                "n = {n}: everyone is in every round"
            );
            assert_eq!(round.iter().filter(|p| p.1.is_none()).count(), n % 2);
        }
        for (a, row) in met.iter().enumerate() {
            for (b, &times) in row.iter().enumerate() {
                if a != b {
                    assert_eq!(times, cycles, "n = {n}: {a} meets {b}");
                }
            }
            let games = cycles * (n - 1);
            // Balanced colours: half the games with sente, give or take one.
            let half = games / 2;
            assert!(
                sente[a] + 1 >= half && sente[a] <= half + 1,
                "n = {n}: {a} has sente {} of {games}",
                sente[a]
            );
        }
    }

    #[test]
    fn round_robins_meet_everyone_once_with_balanced_colours() {
        for n in 2..=20 {
            check_round_robin(n, false);
            check_round_robin(n, true);
        }
        assert!(round_robin(1, false).is_empty());
    }

    #[test]
    fn double_round_robin_swaps_colours() {
        let rounds = round_robin(6, true);
        for r in 0..5 {
            for (a, b) in rounds[r].iter().zip(&rounds[r + 5]) {
                assert_eq!((a.0, a.1), (b.1.unwrap(), Some(b.0)));
            }
        }
    }

    fn swiss_player(halves: i64, rating: f64) -> SwissPlayer {
        SwissPlayer {
            halves,
            rating,
            ..SwissPlayer::default()
        }
    }

    #[test]
    fn swiss_pairs_by_score_avoids_rematches_and_gives_one_bye() {
        let mut ps: Vec<SwissPlayer> = (0..5).map(|i| swiss_player(0, 1500.0 - i as f64)).collect();
        let r1 = swiss(&ps);
        assert_eq!(r1.len(), 3);
        assert_eq!(r1.last().unwrap(), &(4, None), "the lowest-rated sits out");
        // Round 1: 0-1, 2-3 met; 0 and 2 won; 4 had the bye.
        ps[0].met.push(1);
        ps[1].met.push(0);
        ps[2].met.push(3);
        ps[3].met.push(2);
        ps[0].halves = 2;
        ps[2].halves = 2;
        ps[4].halves = 2;
        ps[4].had_bye = true;
        let r2 = swiss(&ps);
        let pairs: Vec<(usize, usize)> = r2
            .iter()
            .filter_map(|&(s, g)| g.map(|g| (s.min(g), s.max(g))))
            .collect();
        for &(a, b) in &pairs {
            assert!(!ps[a].met.contains(&b), "no rematch: {a}-{b}");
        }
        let bye = r2.iter().find(|p| p.1.is_none()).unwrap().0;
        assert_ne!(bye, 4, "no second bye");
        // The leaders meet each other where they can.
        assert!(pairs.contains(&(0, 2)), "{pairs:?}");
    }

    #[test]
    fn swiss_skips_withdrawn_players_and_balances_colours() {
        let mut ps: Vec<SwissPlayer> = (0..4).map(|i| swiss_player(0, 1500.0 - i as f64)).collect();
        ps[3].withdrawn = true;
        ps[0].balance = 1;
        ps[0].last_sente = Some(true);
        let r = swiss(&ps);
        assert_eq!(r.len(), 2);
        assert!(r.iter().all(|&(s, g)| s != 3 && g != Some(3)));
        let game = r.iter().find(|p| p.1.is_some()).unwrap();
        assert_ne!(game.0, 0, "who had sente more often gets gote");
    }

    #[test]
    fn swiss_allows_rematches_when_nothing_else_is_left() {
        let mut ps: Vec<SwissPlayer> = (0..2).map(|i| swiss_player(0, 1500.0 - i as f64)).collect();
        ps[0].met.push(1);
        ps[1].met.push(0);
        assert_eq!(swiss(&ps).len(), 1);
    }

    #[test]
    fn standings_count_points_then_sonneborn_berger_then_direct_encounter() {
        // 0 beats 1, 1 beats 2, 2 beats 0: a circle, all on 1 point and
        // equal SB. 3 loses everything.
        let results = vec![
            (0, Some(1), Score::Sente),
            (1, Some(2), Score::Sente),
            (2, Some(0), Score::Sente),
            (0, Some(3), Score::Sente),
            (3, Some(1), Score::Gote),
            (2, Some(3), Score::Draw),
        ];
        let t = standings(4, &results);
        // Points: 0: 2, 1: 2, 2: 1.5, 3: 0.5.
        assert_eq!(t[0].halves, 4);
        assert_eq!(t[1].halves, 4);
        // SB: 0 beat 1 (2 points) and 3 (0.5) = 2.5; 1 beat 2 (1.5) and 3
        // (0.5) = 2: player 0 ahead.
        assert_eq!((t[0].player, t[0].sb_quarters), (0, 10));
        assert_eq!((t[1].player, t[1].sb_quarters), (1, 8));
        assert_eq!((t[2].player, t[2].halves, t[2].draws), (2, 3, 1));
        assert_eq!(
            (t[3].player, t[3].wins, t[3].draws, t[3].losses),
            (3, 0, 1, 2)
        );
        assert_eq!(
            t.iter().map(|s| s.place).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
    }

    #[test]
    fn direct_encounter_breaks_a_tie_of_points_and_sb() {
        // 1 beat 0; 2 beat 0 and 1; 0 beat 3; 3 beat 2. 0 and 1 have one
        // point and Sonneborn-Berger 0.5 each; 1 won their game.
        let results = vec![
            (0, Some(1), Score::Gote),
            (0, Some(2), Score::Gote),
            (0, Some(3), Score::Sente),
            (1, Some(2), Score::Gote),
            (2, Some(3), Score::Gote),
        ];
        let t = standings(4, &results);
        let order: Vec<usize> = t.iter().map(|s| s.player).collect();
        assert_eq!(order, vec![2, 3, 1, 0]);
        assert_eq!(
            (t[2].halves, t[2].sb_quarters),
            (t[3].halves, t[3].sb_quarters)
        );
        assert_eq!(t[3].place, 4, "not shared: the direct game decides");
        // Two players who drew, with nothing else: a shared place.
        let t = standings(2, &[(0, Some(1), Score::Draw)]);
        assert_eq!((t[0].place, t[1].place), (1, 1));
    }

    #[test]
    fn a_bye_scores_but_is_no_game() {
        let t = standings(2, &[(0, None, Score::Sente), (1, None, Score::Nobody)]);
        assert_eq!((t[0].player, t[0].halves, t[0].wins), (0, 2, 0));
        assert_eq!(t[1].halves, 0);
    }
}
