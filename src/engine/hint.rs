//! Hints: the engine's best move and a one-line reason a player understands.
//!
//! The reason is data ([`HintReason`]); [`reason_text`] turns it into an
//! English or German sentence (it moves into the i18n module later).

use crate::shogi::{attacks, Color, Move, PieceKind, Position, Square};

use super::eval::{exchange_value, BOARD_VALUE};
use super::mate::MateSearch;
use super::score::Score;
use super::search::{pass, Limits, Searcher};

/// Why the hinted move is good, most important reason first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HintReason {
    /// It starts a forced mate in this many of the player's moves.
    MateIn(u32),
    /// The player is in check and this answers it best.
    EscapesCheck,
    /// The opponent threatens mate and this move stops it.
    StopsMate,
    /// It wins a piece of this kind (captured and not lost back).
    WinsPiece(PieceKind),
    /// It captures a piece of this kind in an exchange.
    Captures(PieceKind),
    /// The piece of this kind was attacked and is safe after the move.
    SavesPiece(PieceKind),
    /// It threatens mate next move.
    ThreatensMate,
    /// The piece of this kind promotes.
    Promotes(PieceKind),
    /// It gives check.
    GivesCheck,
    /// A drop of this kind that strengthens the position.
    Drop(PieceKind),
    /// The position is lost; this move holds out longest (mate in this many).
    HoldsOut(u32),
    /// The moved piece now attacks an opponent's piece of this kind that is
    /// undefended or worth more than the attacker.
    Attacks(PieceKind),
    /// It defends a piece of this kind that was attacked and undefended.
    Defends(PieceKind),
    /// The king steps away from the action, or a gold or silver joins it:
    /// the castle gets stronger.
    GuardsKing,
    /// A pawn move that opens the way for the bishop or rook (this kind).
    OpensLine(PieceKind),
    /// A piece of this kind leaves its starting rank to take part.
    Develops(PieceKind),
    /// The king heads for the opponent's camp (entering king).
    KingForward,
    /// The piece of this kind reaches more squares: (before, after).
    Activates(PieceKind, u32, u32),
    /// A waiting move that leaves nothing undefended.
    Waits,
}

/// A hint: the move, why, and the engine's score for the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The suggested move.
    pub mv: Move,
    /// The main reason for it.
    pub reason: HintReason,
    /// The score after the search, from the player's point of view.
    pub score: Score,
    /// The line the engine expects.
    pub pv: Vec<Move>,
}

/// The best move at `pos` with its reason, or `None` when there is no legal
/// move. `history` is as for [`Searcher::search`]; mate-first is added to
/// `limits` if the caller did not ask for it.
#[must_use]
pub fn hint(pos: &Position, history: &[(u64, bool)], limits: Limits) -> Option<Hint> {
    let mut limits = limits;
    if limits.mate_first.is_none() {
        limits.mate_first = Some(5);
    }
    let result = Searcher::new(16).search(pos, history, limits, |_| {});
    let mv = result.best?;
    let reason = explain(pos, mv, result.score);
    Some(Hint {
        mv,
        reason,
        score: result.score,
        pv: result.pv,
    })
}

/// The reason for playing `mv` at `pos`, given the search score of the best line.
#[must_use]
pub fn explain(pos: &Position, mv: Move, score: Score) -> HintReason {
    match score {
        Score::Mate(n) if n > 0 => return HintReason::MateIn(n as u32),
        Score::Mate(n) if n < 0 => return HintReason::HoldsOut((-n) as u32),
        _ => {}
    }
    if pos.in_check() {
        return HintReason::EscapesCheck;
    }
    let us = pos.side_to_move();
    let them = !us;
    let next = pos.after(mv);
    let moving = match mv {
        Move::Normal { from, .. } => pos.piece_at(from).map(|p| p.kind),
        Move::Drop { kind, .. } => Some(kind),
    };

    // Captures: a win if the piece cannot be taken back profitably.
    if let (Move::Normal { to, .. }, Some(victim)) = (mv, pos.piece_at(mv.to())) {
        let after_kind = next.piece_at(to).map_or(PieceKind::Pawn, |p| p.kind);
        let recapture = next.is_attacked(to, them, next.occupied());
        let gain = BOARD_VALUE[victim.kind.index()];
        let risk = if recapture {
            exchange_value(after_kind)
        } else {
            0
        };
        return if gain > risk || !recapture {
            HintReason::WinsPiece(victim.kind)
        } else {
            HintReason::Captures(victim.kind)
        };
    }

    // The opponent threatened mate before; does the move stop it?
    if let Some(passed) = pass(pos) {
        if mates_within(&passed, 3) && !mates_within(&next, 3) {
            return HintReason::StopsMate;
        }
    }

    // Saving an attacked piece that was loose or attacked by a cheaper one.
    if let Move::Normal { from, to, .. } = mv {
        if let Some(kind) = moving.filter(|&k| k != PieceKind::King) {
            let occ = pos.occupied();
            let attackers = pos.attackers_to(from, them, occ);
            let defended = pos.attackers_to(from, us, occ).is_any();
            let cheapest = attackers
                .into_iter()
                .filter_map(|s| pos.piece_at(s))
                .map(|p| exchange_value(p.kind))
                .min();
            let threatened = cheapest.is_some_and(|c| !defended || c < exchange_value(kind));
            let safe_now = !next.is_attacked(to, them, next.occupied());
            if threatened && safe_now && exchange_value(kind) >= 300 {
                return HintReason::SavesPiece(kind);
            }
        }
    }

    // After the move, would a free move for us mate? Then it threatens mate.
    if !next.in_check() {
        if let Some(again) = pass(&next) {
            if mates_within(&again, 3) {
                return HintReason::ThreatensMate;
            }
        }
    }
    if mv.is_promotion() {
        return HintReason::Promotes(moving.unwrap_or(PieceKind::Pawn));
    }
    if next.in_check() {
        return HintReason::GivesCheck;
    }
    if let Move::Drop { kind, .. } = mv {
        return HintReason::Drop(kind);
    }
    quiet_reason(pos, mv, &next)
}

/// What a quiet move (no capture, check, promotion or drop) does.
fn quiet_reason(pos: &Position, mv: Move, next: &Position) -> HintReason {
    let us = pos.side_to_move();
    let them = !us;
    let Move::Normal { from, to, .. } = mv else {
        return HintReason::Waits;
    };
    let Some(piece) = pos.piece_at(from) else {
        return HintReason::Waits;
    };
    let kind = piece.kind;
    let occ_after = next.occupied();
    // A new attack on something worth taking.
    let reach_after = attacks(
        us,
        next.piece_at(to).map_or(kind, |p| p.kind),
        to,
        occ_after,
    );
    let reach_before = attacks(us, kind, from, pos.occupied());
    let target = Square::all()
        .filter(|&sq| reach_after.has(sq) && !reach_before.has(sq))
        .filter_map(|sq| {
            next.piece_at(sq)
                .filter(|p| p.color == them)
                .map(|p| (sq, p.kind))
        })
        .filter(|&(sq, k)| {
            k != PieceKind::King
                && (!next.is_attacked(sq, them, occ_after)
                    || exchange_value(k) > exchange_value(kind))
        })
        .max_by_key(|&(_, k)| exchange_value(k));
    if let Some((_, k)) = target {
        return HintReason::Attacks(k);
    }
    // A loose piece of ours is defended now.
    let loose_before = super::danger::hanging(pos, us);
    let loose_after = super::danger::hanging(next, us);
    if let Some(k) = loose_before
        .iter()
        .filter(|&&sq| sq != from && !loose_after.contains(&sq))
        .filter_map(|&sq| next.piece_at(sq))
        .map(|p| p.kind)
        .max_by_key(|&k| exchange_value(k))
    {
        return HintReason::Defends(k);
    }
    let forward = |sq: Square| match us {
        Color::Sente => 10 - i32::from(sq.rank()),
        Color::Gote => i32::from(sq.rank()),
    };
    if kind == PieceKind::King {
        // Far up the board the king heads for the camp; otherwise a king
        // move that is not a flight is castling.
        if forward(to) > forward(from) && forward(from) >= 5 {
            return HintReason::KingForward;
        }
        return HintReason::GuardsKing;
    }
    if let Some(k) = pos.king_square(us) {
        let near = |sq: Square| {
            (i32::from(sq.file()) - i32::from(k.file())).abs() <= 1
                && (i32::from(sq.rank()) - i32::from(k.rank())).abs() <= 1
        };
        if matches!(kind, PieceKind::Gold | PieceKind::Silver) && near(to) && !near(from) {
            return HintReason::GuardsKing;
        }
    }
    if kind == PieceKind::Pawn {
        // Does the pawn step open a line for our bishop or rook?
        let reach = |p: &Position, slider: PieceKind| {
            Square::all()
                .filter(|&sq| {
                    p.piece_at(sq)
                        .is_some_and(|b| b.color == us && b.kind == slider)
                })
                .map(|sq| attacks(us, slider, sq, p.occupied()).count())
                .sum::<u32>()
        };
        let gain = |slider| reach(next, slider).saturating_sub(reach(pos, slider));
        let (bishop, rook) = (gain(PieceKind::Bishop), gain(PieceKind::Rook));
        if bishop > 0 || rook > 0 {
            return HintReason::OpensLine(if bishop >= rook {
                PieceKind::Bishop
            } else {
                PieceKind::Rook
            });
        }
    }
    let home = |sq: Square| forward(sq) == 1;
    if matches!(
        kind,
        PieceKind::Silver | PieceKind::Gold | PieceKind::Knight
    ) && home(from)
        && !home(to)
    {
        return HintReason::Develops(kind);
    }
    let (before, after) = (reach_before.count(), reach_after.count());
    if after > before {
        return HintReason::Activates(kind, before, after);
    }
    HintReason::Waits
}

fn mates_within(pos: &Position, plies: u32) -> bool {
    MateSearch::new(30_000, None, None)
        .find(pos, plies)
        .is_some()
}

fn kind_name(kind: PieceKind, german: bool) -> &'static str {
    use PieceKind as K;
    match (kind, german) {
        (K::Pawn, false) => "pawn",
        (K::Lance, false) => "lance",
        (K::Knight, false) => "knight",
        (K::Silver, false) => "silver",
        (K::Gold, false) => "gold",
        (K::Bishop, false) => "bishop",
        (K::Rook, false) => "rook",
        (K::King, false) => "king",
        (K::ProPawn, false) => "tokin",
        (K::ProLance, false) => "promoted lance",
        (K::ProKnight, false) => "promoted knight",
        (K::ProSilver, false) => "promoted silver",
        (K::Horse, false) => "horse",
        (K::Dragon, false) => "dragon",
        (K::Pawn, true) => "Bauer",
        (K::Lance, true) => "Lanze",
        (K::Knight, true) => "Springer",
        (K::Silver, true) => "Silber",
        (K::Gold, true) => "Gold",
        (K::Bishop, true) => "Läufer",
        (K::Rook, true) => "Turm",
        (K::King, true) => "König",
        (K::ProPawn, true) => "Tokin",
        (K::ProLance, true) => "beförderte Lanze",
        (K::ProKnight, true) => "beförderter Springer",
        (K::ProSilver, true) => "befördertes Silber",
        (K::Horse, true) => "Pferd",
        (K::Dragon, true) => "Drache",
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Gender {
    Masculine,
    Feminine,
    Neuter,
}

fn gender(kind: PieceKind) -> Gender {
    use PieceKind as K;
    match kind {
        K::Pawn | K::Knight | K::Bishop | K::Rook | K::King | K::Dragon | K::ProKnight => {
            Gender::Masculine
        }
        K::Lance | K::ProLance => Gender::Feminine,
        K::Silver | K::Gold | K::Horse | K::ProPawn | K::ProSilver => Gender::Neuter,
    }
}

/// German article + noun in the accusative ("den Turm", "das Pferd", "die Lanze").
fn german_acc(kind: PieceKind) -> String {
    use PieceKind as K;
    let noun = match kind {
        K::Pawn => "Bauern",
        K::Dragon => "Drachen",
        K::ProLance => "beförderte Lanze",
        K::ProKnight => "beförderten Springer",
        K::ProSilver => "beförderte Silber",
        k => kind_name(k, true),
    };
    let article = match gender(kind) {
        Gender::Masculine => "den",
        Gender::Feminine => "die",
        Gender::Neuter => "das",
    };
    format!("{article} {noun}")
}

/// German article + noun in the dative ("dem Turm", "der Lanze").
fn german_dat(kind: PieceKind) -> String {
    use PieceKind as K;
    let noun = match kind {
        K::Pawn => "Bauern",
        K::Dragon => "Drachen",
        K::ProLance => "beförderten Lanze",
        K::ProKnight => "beförderten Springer",
        K::ProSilver => "beförderten Silber",
        k => kind_name(k, true),
    };
    let article = match gender(kind) {
        Gender::Masculine | Gender::Neuter => "dem",
        Gender::Feminine => "der",
    };
    format!("{article} {noun}")
}

/// The German relative pronoun (nominative) and personal pronoun of a kind.
fn german_pronouns(kind: PieceKind) -> (&'static str, &'static str) {
    match gender(kind) {
        Gender::Masculine => ("der", "er"),
        Gender::Feminine => ("die", "sie"),
        Gender::Neuter => ("das", "es"),
    }
}

/// The sentence for a reason, in English or German.
#[must_use]
pub fn reason_text(reason: &HintReason, german: bool) -> String {
    use HintReason as R;
    match (*reason, german) {
        (R::MateIn(1), false) => "Checkmate!".to_string(),
        (R::MateIn(1), true) => "Schachmatt!".to_string(),
        (R::MateIn(n), false) => format!("Forces mate in {n} moves."),
        (R::MateIn(n), true) => format!("Erzwingt Matt in {n} Zügen."),
        (R::EscapesCheck, false) => "Gets the king out of check.".to_string(),
        (R::EscapesCheck, true) => "Bringt den König aus dem Schach.".to_string(),
        (R::StopsMate, false) => "Stops the opponent's mating threat.".to_string(),
        (R::StopsMate, true) => "Verhindert die Mattdrohung des Gegners.".to_string(),
        (R::WinsPiece(k), false) => format!("Wins the {}.", kind_name(k, false)),
        (R::WinsPiece(k), true) => format!("Gewinnt {}.", german_acc(k)),
        (R::Captures(k), false) => format!("Takes the {} in a good exchange.", kind_name(k, false)),
        (R::Captures(k), true) => format!("Schlägt {} in einem guten Tausch.", german_acc(k)),
        (R::SavesPiece(k), false) => format!("Saves the attacked {}.", kind_name(k, false)),
        (R::SavesPiece(k), true) => {
            format!(
                "Rettet {}, {} angegriffen war.",
                german_acc(k),
                german_pronouns(k).0
            )
        }
        (R::ThreatensMate, false) => "Threatens mate next move.".to_string(),
        (R::ThreatensMate, true) => "Droht im nächsten Zug Matt.".to_string(),
        (R::Promotes(k), false) => format!("Promotes the {}.", kind_name(k, false)),
        (R::Promotes(k), true) => format!("Befördert {}.", german_acc(k)),
        (R::GivesCheck, false) => "Gives check and keeps the initiative.".to_string(),
        (R::GivesCheck, true) => "Gibt Schach und behält die Initiative.".to_string(),
        (R::Drop(k), false) => {
            format!("Drops the {} where it is most useful.", kind_name(k, false))
        }
        (R::Drop(k), true) => format!(
            "Setzt {} dort ein, wo {} am meisten nützt.",
            german_acc(k),
            german_pronouns(k).1
        ),
        (R::HoldsOut(n), false) => {
            format!("The position is lost (mate in {n}); this resists longest.")
        }
        (R::HoldsOut(n), true) => {
            format!("Die Stellung ist verloren (Matt in {n}); dieser Zug hält am längsten.")
        }
        (R::Attacks(k), false) => format!("Attacks the {}.", kind_name(k, false)),
        (R::Attacks(k), true) => format!("Greift {} an.", german_acc(k)),
        (R::Defends(k), false) => format!("Defends the {} that was hanging.", kind_name(k, false)),
        (R::Defends(k), true) => format!(
            "Deckt {}, {} ungedeckt angegriffen war.",
            german_acc(k),
            german_pronouns(k).0
        ),
        (R::GuardsKing, false) => "Makes the king's castle safer.".to_string(),
        (R::GuardsKing, true) => "Macht die Burg des Königs sicherer.".to_string(),
        (R::OpensLine(PieceKind::Bishop), false) => "Opens the bishop's diagonal.".to_string(),
        (R::OpensLine(PieceKind::Bishop), true) => "Öffnet die Diagonale des Läufers.".to_string(),
        (R::OpensLine(k), false) => format!("Opens the way for the {}.", kind_name(k, false)),
        (R::OpensLine(k), true) => format!("Macht {} den Weg frei.", german_dat(k)),
        (R::Develops(k), false) => format!("Brings the {} into play.", kind_name(k, false)),
        (R::Develops(k), true) => format!("Bringt {} ins Spiel.", german_acc(k)),
        (R::KingForward, false) => {
            "Marches the king towards the opponent's camp (entering king).".to_string()
        }
        (R::KingForward, true) => {
            "Führt den König ins gegnerische Lager (Einzug des Königs).".to_string()
        }
        (R::Activates(k, a, b), false) => format!(
            "Gives the {} more room: {b} squares instead of {a}.",
            kind_name(k, false)
        ),
        (R::Activates(k, a, b), true) => format!(
            "Gibt {} mehr Raum: {b} Felder statt {a}.",
            german_dat(k)
        ),
        (R::Waits, false) => {
            "A waiting move: nothing of yours is left undefended, and the opponent must show a plan.".to_string()
        }
        (R::Waits, true) => {
            "Ein Wartezug: nichts von dir bleibt ungedeckt, und der Gegner muss einen Plan zeigen.".to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn german_articles() {
        assert_eq!(
            reason_text(&HintReason::WinsPiece(PieceKind::Rook), true),
            "Gewinnt den Turm."
        );
        assert_eq!(
            reason_text(&HintReason::WinsPiece(PieceKind::Silver), true),
            "Gewinnt das Silber."
        );
        assert_eq!(
            reason_text(&HintReason::SavesPiece(PieceKind::Silver), true),
            "Rettet das Silber, das angegriffen war."
        );
    }
}
