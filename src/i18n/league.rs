//! The sentences of server leagues, and the standings as a table to draw.

use crate::app::{LeagueInfo, PairingLine, Refusal, StandingLine, Who};
use crate::lang::Lang;
use crate::render::Table;

use super::app::{at_rel, n_of};

fn name(w: &Who) -> String {
    // Names go into code blocks: a backtick would end one.
    w.name.replace('`', "'")
}

fn format_text(l: &LeagueInfo, lang: Lang) -> String {
    match (l.format.as_str(), lang) {
        ("double", Lang::En) => "double round robin".into(),
        ("double", Lang::De) => "doppeltes Rundenturnier".into(),
        ("swiss", Lang::En) => format!("Swiss system, {}", n_of(l.rounds, "round", "rounds")),
        ("swiss", Lang::De) => format!("Schweizer System, {}", n_of(l.rounds, "Runde", "Runden")),
        (_, Lang::En) => "round robin".into(),
        (_, Lang::De) => "Rundenturnier".into(),
    }
}

fn terms(l: &LeagueInfo, lang: Lang) -> String {
    let variant = match (l.variant.as_str(), lang) {
        ("minishogi", _) => "minishogi",
        (_, Lang::En) => "shogi",
        (_, Lang::De) => "Shogi",
    };
    match lang {
        Lang::En => format!(
            "{}, {variant}, {} per move, {}",
            format_text(l, lang),
            n_of(l.days, "day", "days"),
            if l.rated { "rated" } else { "unrated" }
        ),
        Lang::De => format!(
            "{}, {variant}, {} pro Zug, {}",
            format_text(l, lang),
            n_of(l.days, "Tag", "Tage"),
            if l.rated { "gewertet" } else { "ungewertet" }
        ),
    }
}

fn title(l: &LeagueInfo) -> String {
    format!("**{}** (#{})", l.name, l.id)
}

/// Points from halves: `3`, `3.5` (`3,5` in German).
fn points(halves: i64, lang: Lang) -> String {
    let s = if halves % 2 == 0 {
        format!("{}", halves / 2)
    } else {
        format!("{}.5", halves / 2)
    };
    if lang == Lang::De {
        s.replace('.', ",")
    } else {
        s
    }
}

/// Sonneborn-Berger from quarters, two decimals at most.
fn sb(quarters: i64, lang: Lang) -> String {
    let whole = quarters / 4;
    let s = match quarters % 4 {
        0 => format!("{whole}"),
        1 => format!("{whole}.25"),
        2 => format!("{whole}.5"),
        _ => format!("{whole}.75"),
    };
    if lang == Lang::De {
        s.replace('.', ",")
    } else {
        s
    }
}

pub(super) fn created(l: &LeagueInfo, by: &Who, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "🏆 {} created the league {}: {}; up to {} players. It starts {}. Press **Join** to take part (or `/league join`).",
            name(by),
            title(l),
            terms(l, lang),
            l.max_players,
            at_rel(l.starts_at)
        ),
        Lang::De => format!(
            "🏆 {} hat die Liga {} eröffnet: {}; bis zu {} Spieler. Sie beginnt {}. Drück **Beitreten**, um mitzuspielen (oder `/liga beitreten`).",
            name(by),
            title(l),
            terms(l, lang),
            l.max_players,
            at_rel(l.starts_at)
        ),
    }
}

pub(super) fn joined(l: &LeagueInfo, who: &Who, left: bool, lang: Lang) -> String {
    match (left, lang) {
        (false, Lang::En) => format!(
            "{} joined {}: {} of {} players.",
            name(who),
            title(l),
            l.players,
            l.max_players
        ),
        (false, Lang::De) => format!(
            "{} ist der Liga {} beigetreten: {} von {} Spielern.",
            name(who),
            title(l),
            l.players,
            l.max_players
        ),
        (true, Lang::En) => format!(
            "{} left {}: {} of {} players.",
            name(who),
            title(l),
            l.players,
            l.max_players
        ),
        (true, Lang::De) => format!(
            "{} hat die Liga {} verlassen: {} von {} Spielern.",
            name(who),
            title(l),
            l.players,
            l.max_players
        ),
    }
}

pub(super) fn confirm_withdraw(l: &LeagueInfo, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "Withdraw from {}? Your running games in it are resigned at once and your later pairings count as lost. This cannot be undone.",
            title(l)
        ),
        Lang::De => format!(
            "Aus der Liga {} zurückziehen? Deine laufenden Partien darin werden sofort aufgegeben, deine späteren Paarungen zählen als verloren. Das lässt sich nicht rückgängig machen.",
            title(l)
        ),
    }
}

pub(super) fn withdrew(l: &LeagueInfo, who: &Who, resigned: &[i64], lang: Lang) -> String {
    let games: Vec<String> = resigned.iter().map(|g| format!("#{g}")).collect();
    match (resigned.is_empty(), lang) {
        (true, Lang::En) => format!("{} withdrew from {}. Their later pairings count as lost.", name(who), title(l)),
        (true, Lang::De) => format!("{} hat sich aus der Liga {} zurückgezogen. Die späteren Paarungen zählen als verloren.", name(who), title(l)),
        (false, Lang::En) => format!(
            "{} withdrew from {} and resigned {} {}. Their later pairings count as lost.",
            name(who),
            title(l),
            if resigned.len() == 1 { "game" } else { "games" },
            games.join(", ")
        ),
        (false, Lang::De) => format!(
            "{} hat sich aus der Liga {} zurückgezogen und {} {} aufgegeben. Die späteren Paarungen zählen als verloren.",
            name(who),
            title(l),
            if resigned.len() == 1 { "die Partie" } else { "die Partien" },
            games.join(", ")
        ),
    }
}

pub(super) fn started_now(l: &LeagueInfo, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{} has started with {} players: round 1 of {} and its games are being posted.",
            title(l),
            l.players,
            l.rounds
        ),
        Lang::De => format!(
            "{} hat mit {} Spielern begonnen: Runde 1 von {} und ihre Partien werden gepostet.",
            title(l),
            l.players,
            l.rounds
        ),
    }
}

fn result_text(p: &PairingLine, lang: Lang) -> String {
    let how = match (p.how.as_deref(), lang) {
        (Some("forfeit"), Lang::En) => " (withdrawal, no game)",
        (Some("forfeit"), Lang::De) => " (Rückzug, ohne Partie)",
        (Some("timeout"), Lang::En) => " (time)",
        (Some("timeout"), Lang::De) => " (Zeit)",
        (Some("resignation"), Lang::En) => " (resigned)",
        (Some("resignation"), Lang::De) => " (aufgegeben)",
        (Some("checkmate"), Lang::En) => " (mate)",
        (Some("checkmate"), Lang::De) => " (Matt)",
        _ => "",
    };
    match (p.result.as_deref(), lang) {
        (Some("sente"), _) => format!("1–0{how}"),
        (Some("gote"), _) => format!("0–1{how}"),
        (Some("draw"), _) => format!("½–½{how}"),
        (Some(_), _) => format!("0–0{how}"),
        (None, Lang::En) if p.game_id.is_some() => "playing".into(),
        (None, Lang::De) if p.game_id.is_some() => "läuft".into(),
        (None, Lang::En) => "not started".into(),
        (None, Lang::De) => "noch nicht begonnen".into(),
    }
}

fn pairing_line(p: &PairingLine, lang: Lang) -> String {
    let Some(gote) = &p.gote else {
        return match (p.result.as_deref(), lang) {
            (Some("sente"), Lang::En) => format!("{}. {}: bye (1 point)", p.board, name(&p.sente)),
            (Some("sente"), Lang::De) => {
                format!("{}. {}: spielfrei (1 Punkt)", p.board, name(&p.sente))
            }
            (_, Lang::En) => format!("{}. {}: sits this round out", p.board, name(&p.sente)),
            (_, Lang::De) => format!("{}. {}: setzt diese Runde aus", p.board, name(&p.sente)),
        };
    };
    let game = p.game_id.map_or_else(String::new, |g| {
        let place = p.place.map_or_else(String::new, |c| format!(" · <#{c}>"));
        match lang {
            Lang::En => format!(" — game #{g}{place}"),
            Lang::De => format!(" — Partie #{g}{place}"),
        }
    });
    format!(
        "{}. ☗ {} – ☖ {}: {}{game}",
        p.board,
        name(&p.sente),
        name(gote),
        result_text(p, lang)
    )
}

pub(super) fn round(
    l: &LeagueInfo,
    round: i64,
    pairings: &[PairingLine],
    begins: bool,
    lang: Lang,
) -> String {
    let mut s = match (begins, lang) {
        (true, Lang::En) => format!("{} — round {round} of {} begins:", title(l), l.rounds),
        (true, Lang::De) => format!("{} — Runde {round} von {} beginnt:", title(l), l.rounds),
        (false, Lang::En) => format!("{} — round {round} of {}:", title(l), l.rounds),
        (false, Lang::De) => format!("{} — Runde {round} von {}:", title(l), l.rounds),
    };
    for p in pairings {
        s.push('\n');
        s.push_str(&pairing_line(p, lang));
    }
    s
}

pub(super) fn game_intro(
    league_id: i64,
    league: &str,
    round: i64,
    rounds: i64,
    lang: Lang,
) -> String {
    match lang {
        Lang::En => format!("League **{league}** (#{league_id}), round {round} of {rounds}."),
        Lang::De => format!("Liga **{league}** (#{league_id}), Runde {round} von {rounds}."),
    }
}

fn standings_heading(l: &LeagueInfo, last: bool, lang: Lang) -> String {
    match (last, l.round, lang) {
        (true, _, Lang::En) => format!("🏆 Final standings of {}", l.name),
        (true, _, Lang::De) => format!("🏆 Abschlusstabelle der Liga {}", l.name),
        (false, 0, Lang::En) => format!("{} – not started yet", l.name),
        (false, 0, Lang::De) => format!("{} – noch nicht begonnen", l.name),
        (false, r, Lang::En) => format!("{} – round {r} of {}", l.name, l.rounds),
        (false, r, Lang::De) => format!("{} – Runde {r} von {}", l.name, l.rounds),
    }
}

fn header(lang: Lang) -> [&'static str; 7] {
    match lang {
        Lang::En => ["Pl.", "Player", "Pts", "SB", "W", "D", "L"],
        Lang::De => ["Pl.", "Spieler", "Pkt.", "SB", "S", "R", "N"],
    }
}

pub(super) fn standings(l: &LeagueInfo, rows: &[StandingLine], last: bool, lang: Lang) -> String {
    let mut s = format!(
        "{}:",
        standings_heading(l, last, lang).replace(&l.name, &format!("**{}**", l.name))
    );
    if rows.is_empty() {
        s.push_str(match lang {
            Lang::En => " nobody has joined yet.",
            Lang::De => " noch niemand ist beigetreten.",
        });
        return s;
    }
    let names: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut n: String = name(&r.who).chars().take(20).collect();
            if r.withdrawn {
                n.push_str(" ×");
            }
            n
        })
        .collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let h = header(lang);
    s.push_str("\n```\n");
    s.push_str(&format!(
        "{:>3}  {:<width$}  {:>4}  {:>6}  {:>2} {:>2} {:>2}\n",
        h[0], h[1], h[2], h[3], h[4], h[5], h[6]
    ));
    for (r, n) in rows.iter().zip(&names) {
        s.push_str(&format!(
            "{:>3}  {:<width$}  {:>4}  {:>6}  {:>2} {:>2} {:>2}\n",
            r.place,
            n,
            points(r.halves, lang),
            sb(r.sb_quarters, lang),
            r.wins,
            r.draws,
            r.losses
        ));
    }
    s.push_str("```");
    s.push_str(match (rows.iter().any(|r| r.withdrawn), lang) {
        (false, Lang::En) => "\nTiebreaks: Sonneborn-Berger (SB), then the direct encounter.",
        (false, Lang::De) => "\nGleichstand: Sonneborn-Berger (SB), dann der direkte Vergleich.",
        (true, Lang::En) => {
            "\nTiebreaks: Sonneborn-Berger (SB), then the direct encounter. ×: withdrew."
        }
        (true, Lang::De) => {
            "\nGleichstand: Sonneborn-Berger (SB), dann der direkte Vergleich. ×: zurückgezogen."
        }
    });
    if last {
        if let Some(w) = rows.first() {
            s.push_str(&match lang {
                Lang::En => format!("\nCongratulations, {}!", name(&w.who)),
                Lang::De => format!("\nHerzlichen Glückwunsch, {}!", name(&w.who)),
            });
        }
    }
    s
}

/// The standings as a table image: the same lines as the text.
#[must_use]
pub fn standings_table(l: &LeagueInfo, rows: &[StandingLine], last: bool, lang: Lang) -> Table {
    let title = standings_heading(l, last, lang).replace("🏆 ", "");
    Table {
        title,
        header: header(lang).iter().map(|h| (*h).to_string()).collect(),
        rows: rows
            .iter()
            .map(|r| {
                let mut n = r.who.name.clone();
                if r.withdrawn {
                    n.push_str(" ×");
                }
                vec![
                    r.place.to_string(),
                    n,
                    // The image's font has no comma: points as 3.5 in both.
                    points(r.halves, Lang::En),
                    sb(r.sb_quarters, Lang::En),
                    r.wins.to_string(),
                    r.draws.to_string(),
                    r.losses.to_string(),
                ]
            })
            .collect(),
        faint: rows.iter().map(|r| r.withdrawn).collect(),
        left: vec![1],
    }
}

pub(super) fn cancelled(l: &LeagueInfo, need: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{} is cancelled: {} joined, at least {need} are needed.",
            title(l),
            n_of(l.players as i64, "player", "players")
        ),
        Lang::De => format!(
            "{} fällt aus: {} beigetreten, mindestens {need} sind nötig.",
            title(l),
            n_of(l.players as i64, "Spieler", "Spieler")
        ),
    }
}

fn status(l: &LeagueInfo, lang: Lang) -> String {
    match (l.status.as_str(), lang) {
        ("open", Lang::En) => format!(
            "open, {} of {} players, starts {}",
            l.players,
            l.max_players,
            at_rel(l.starts_at)
        ),
        ("open", Lang::De) => format!(
            "offen, {} von {} Spielern, beginnt {}",
            l.players,
            l.max_players,
            at_rel(l.starts_at)
        ),
        ("running", Lang::En) => {
            format!("round {} of {}, {} players", l.round, l.rounds, l.players)
        }
        ("running", Lang::De) => {
            format!("Runde {} von {}, {} Spieler", l.round, l.rounds, l.players)
        }
        ("finished", Lang::En) => "finished".into(),
        ("finished", Lang::De) => "beendet".into(),
        (_, Lang::En) => "cancelled".into(),
        (_, Lang::De) => "abgesagt".into(),
    }
}

pub(super) fn list(leagues: &[LeagueInfo], lang: Lang) -> String {
    if leagues.is_empty() {
        return match lang {
            Lang::En => "No leagues on this server yet. A member with Manage Server starts one with `/league create`.".into(),
            Lang::De => "Auf diesem Server gibt es noch keine Liga. Ein Mitglied mit „Server verwalten“ eröffnet eine mit `/liga erstellen`.".into(),
        };
    }
    let mut s = match lang {
        Lang::En => "Leagues on this server:".to_string(),
        Lang::De => "Ligen auf diesem Server:".to_string(),
    };
    for l in leagues {
        s.push_str(&format!(
            "\n{} — {}; {}",
            title(l),
            terms(l, lang),
            status(l, lang)
        ));
    }
    s
}

/// The refusals of leagues (others: their English error text, never
/// reached: the caller passes league refusals only).
pub(super) fn refusal(r: &Refusal, lang: Lang) -> String {
    match (r, lang) {
        (Refusal::BadLeagueName(max), Lang::En) => format!("A league's name has 1 to {max} characters."),
        (Refusal::BadLeagueName(max), Lang::De) => format!("Der Name einer Liga hat 1 bis {max} Zeichen."),
        (Refusal::BadSwissRounds(max), Lang::En) => format!("A Swiss league has 1 to {max} rounds."),
        (Refusal::BadSwissRounds(max), Lang::De) => format!("Eine Liga im Schweizer System hat 1 bis {max} Runden."),
        (Refusal::RoundsOnlySwiss, Lang::En) => "Only a Swiss league takes a number of rounds; a round robin has as many as its players need.".into(),
        (Refusal::RoundsOnlySwiss, Lang::De) => "Nur eine Liga im Schweizer System nimmt eine Rundenzahl; ein Rundenturnier hat so viele, wie seine Spieler brauchen.".into(),
        (Refusal::BadLeagueSize { min, max }, Lang::En) => format!("A league takes {min} to {max} players."),
        (Refusal::BadLeagueSize { min, max }, Lang::De) => format!("Eine Liga nimmt {min} bis {max} Spieler."),
        (Refusal::BadLeagueStart(s), Lang::En) => format!("“{s}” is not a start: write `YYYY-MM-DD` or `YYYY-MM-DD HH:MM` (UTC), or `now`."),
        (Refusal::BadLeagueStart(s), Lang::De) => format!("„{s}“ ist kein Beginn: schreib `JJJJ-MM-TT` oder `JJJJ-MM-TT HH:MM` (UTC) oder `jetzt`."),
        (Refusal::LeagueStartOutOfRange { days }, Lang::En) => format!("A league starts between now and {days} days from now."),
        (Refusal::LeagueStartOutOfRange { days }, Lang::De) => format!("Eine Liga beginnt zwischen jetzt und in {days} Tagen."),
        (Refusal::TooManyLeagues(n), Lang::En) => format!("This server already has {n} leagues open or running; a new one can start when one ends."),
        (Refusal::TooManyLeagues(n), Lang::De) => format!("Auf diesem Server sind schon {n} Ligen offen oder laufen; eine neue geht, wenn eine endet."),
        (Refusal::NoSuchLeague, Lang::En) => "There is no such league on this server. `/league list` shows them.".into(),
        (Refusal::NoSuchLeague, Lang::De) => "Diese Liga gibt es auf diesem Server nicht. `/liga liste` zeigt sie.".into(),
        (Refusal::LeagueClosed, Lang::En) => "That league has already started or ended: it takes no new players and cannot be started again. (Once it runs, `/league leave` withdraws.)".into(),
        (Refusal::LeagueClosed, Lang::De) => "Diese Liga hat schon begonnen oder ist vorbei: sie nimmt keine neuen Spieler und lässt sich nicht noch einmal starten. (Während sie läuft, zieht `/liga verlassen` dich zurück.)".into(),
        (Refusal::AlreadyInLeague, Lang::En) => "You are already in that league.".into(),
        (Refusal::AlreadyInLeague, Lang::De) => "Du bist schon in dieser Liga.".into(),
        (Refusal::LeagueFull(max), Lang::En) => format!("That league is full ({max} players)."),
        (Refusal::LeagueFull(max), Lang::De) => format!("Diese Liga ist voll ({max} Spieler)."),
        (Refusal::NotInLeague, Lang::En) => "You are not playing in that league.".into(),
        (Refusal::NotInLeague, Lang::De) => "Du spielst nicht in dieser Liga.".into(),
        (Refusal::LeagueTooFew { have, need }, Lang::En) => format!("Only {have} joined; a league starts with at least {need} players."),
        (Refusal::LeagueTooFew { have, need }, Lang::De) => format!("Erst {have} beigetreten; eine Liga beginnt mit mindestens {need} Spielern."),
        (Refusal::LeagueNotStarted, Lang::En) => "That league has not started yet, so there are no pairings.".into(),
        (Refusal::LeagueNotStarted, Lang::De) => "Diese Liga hat noch nicht begonnen, es gibt noch keine Paarungen.".into(),
        (Refusal::NoSuchRound { last }, Lang::En) => format!("There is no such round: rounds 1 to {last} can be shown."),
        (Refusal::NoSuchRound { last }, Lang::De) => format!("Diese Runde gibt es nicht: Runden 1 bis {last} lassen sich zeigen."),
        (Refusal::NoAbortInLeague, Lang::En) => "League games cannot be aborted. `/resign` ends it as a loss.".into(),
        (Refusal::NoAbortInLeague, Lang::De) => "Ligapartien lassen sich nicht abbrechen. `/aufgeben` beendet sie als Niederlage.".into(),
        _ => r.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_and_sb_read_as_numbers() {
        assert_eq!(points(7, Lang::En), "3.5");
        assert_eq!(points(7, Lang::De), "3,5");
        assert_eq!(points(8, Lang::De), "4");
        assert_eq!(sb(29, Lang::En), "7.25");
        assert_eq!(sb(30, Lang::De), "7,5");
        assert_eq!(sb(31, Lang::En), "7.75");
        assert_eq!(sb(0, Lang::En), "0");
    }
}
