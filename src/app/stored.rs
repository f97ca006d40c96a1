//! The names under which game results are stored (`games.result` and
//! `games.reason`). They are part of every database written so far, so they
//! never change: each is spelled out once in a table below, from which both
//! directions are generated. The name direction is an exhaustive `match`, so
//! a new variant of a rules enum fails to compile until it has a name here;
//! a name used twice is an unreachable pattern, which the lints reject.
//! (The reason names are those the first versions wrote with `{:?}`.)

use crate::notation::Termination;
use crate::shogi::{Color, DrawReason, EnteringKingRule, Handicap, Outcome, Variant, WinReason};

/// One table per enum: `Variant => "stored name"`.
macro_rules! stored_names {
    ($ty:ident, $to:ident, $from:ident, $all:ident, { $($variant:ident => $name:literal),+ $(,)? }) => {
        /// The stored name.
        const fn $to(x: $ty) -> &'static str {
            match x {
                $($ty::$variant => $name,)+
            }
        }

        /// The value of a stored name.
        fn $from(s: &str) -> Option<$ty> {
            match s {
                $($name => Some($ty::$variant),)+
                _ => None,
            }
        }

        /// Every value (for the round-trip tests).
        #[cfg(test)]
        const $all: &[$ty] = &[$($ty::$variant),+];
    };
}

stored_names!(Color, color_name, color_from, ALL_COLORS, {
    Sente => "sente",
    Gote => "gote",
});

stored_names!(WinReason, win_reason_name, win_reason_from, ALL_WIN_REASONS, {
    Checkmate => "Checkmate",
    NoLegalMoves => "NoLegalMoves",
    PerpetualCheck => "PerpetualCheck",
    Repetition => "Repetition",
    Declaration => "Declaration",
    Counting => "Counting",
    Try => "Try",
    Resignation => "Resignation",
    Timeout => "Timeout",
});

stored_names!(DrawReason, draw_reason_name, draw_reason_from, ALL_DRAW_REASONS, {
    Sennichite => "Sennichite",
    MaxPlies => "MaxPlies",
    Counting => "Counting",
});

/// `games.result` of a draw.
const DRAW: &str = "draw";
/// `games.result` and `games.reason` of an aborted game.
const ABORTED: &str = "aborted";
const ABORTED_REASON: &str = "Aborted";

/// The stored (result, reason) of an outcome.
#[must_use]
pub(super) const fn outcome_names(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::Win { winner, reason } => (color_name(winner), win_reason_name(reason)),
        Outcome::Draw(r) => (DRAW, draw_reason_name(r)),
        Outcome::Aborted => (ABORTED, ABORTED_REASON),
    }
}

/// The outcome stored as `result` and `reason`; `None` for names this
/// version does not know (a corrupted or hand-edited row).
#[must_use]
pub(super) fn outcome_from_names(result: &str, reason: &str) -> Option<Outcome> {
    match result {
        DRAW => draw_reason_from(reason).map(Outcome::Draw),
        // The reason of an aborted game says nothing more; read any.
        ABORTED => Some(Outcome::Aborted),
        winner => Some(Outcome::Win {
            winner: color_from(winner)?,
            reason: win_reason_from(reason)?,
        }),
    }
}

/// The record's termination for a stored result (`to_move`: the side to
/// move in the final position).
#[must_use]
pub(super) fn termination_from_names(
    result: &str,
    reason: &str,
    to_move: Color,
) -> Option<Termination> {
    outcome_from_names(result, reason).map(|o| Termination::from_outcome(o, to_move))
}

// Names of variants, rules and handicaps, as stored and as typed.

/// The stored name of a variant.
#[must_use]
pub fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::Standard => "standard",
        Variant::Minishogi => "minishogi",
    }
}

/// The stored name of an entering-king rule.
#[must_use]
pub fn rule_name(r: EnteringKingRule) -> &'static str {
    match r {
        EnteringKingRule::Declaration27 => "declaration27",
        EnteringKingRule::Counting24 => "counting24",
        EnteringKingRule::Try => "try",
    }
}

/// The rule for a stored or typed name.
#[must_use]
pub fn rule_from(s: &str) -> Option<EnteringKingRule> {
    match s.to_ascii_lowercase().as_str() {
        "declaration27" | "declaration" | "27" => Some(EnteringKingRule::Declaration27),
        "counting24" | "counting" | "24" => Some(EnteringKingRule::Counting24),
        "try" => Some(EnteringKingRule::Try),
        _ => None,
    }
}

/// The stored name of a handicap.
#[must_use]
pub fn handicap_name(h: Handicap) -> &'static str {
    match h {
        Handicap::Lance => "lance",
        Handicap::Bishop => "bishop",
        Handicap::Rook => "rook",
        Handicap::RookLance => "rook-lance",
        Handicap::TwoPieces => "2-pieces",
        Handicap::FourPieces => "4-pieces",
        Handicap::SixPieces => "6-pieces",
        Handicap::EightPieces => "8-pieces",
        Handicap::TenPieces => "10-pieces",
    }
}

/// The handicap for a stored or typed name.
#[must_use]
pub fn handicap_from(s: &str) -> Option<Handicap> {
    Handicap::ALL
        .into_iter()
        .find(|&h| handicap_name(h).eq_ignore_ascii_case(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_outcome() -> Vec<Outcome> {
        let mut v = vec![Outcome::Aborted];
        for &r in ALL_DRAW_REASONS {
            v.push(Outcome::Draw(r));
        }
        for &winner in ALL_COLORS {
            for &reason in ALL_WIN_REASONS {
                v.push(Outcome::Win { winner, reason });
            }
        }
        v
    }

    #[test]
    fn every_outcome_round_trips() {
        let all = every_outcome();
        assert_eq!(all.len(), 1 + 3 + 2 * 9);
        for o in all {
            let (result, reason) = outcome_names(o);
            assert_eq!(
                outcome_from_names(result, reason),
                Some(o),
                "{result}/{reason}"
            );
        }
    }

    #[test]
    fn names_in_existing_databases_still_read() {
        // Every (result, reason) an earlier version could write (it wrote the
        // reason with `format!("{reason:?}")`): they must read the same forever.
        use crate::shogi::{DrawReason as D, WinReason as W};
        let mut cases = vec![
            ("draw", "Sennichite", Outcome::Draw(D::Sennichite)),
            ("draw", "MaxPlies", Outcome::Draw(D::MaxPlies)),
            ("draw", "Counting", Outcome::Draw(D::Counting)),
            ("aborted", "Aborted", Outcome::Aborted),
        ];
        for (result, winner) in [("sente", Color::Sente), ("gote", Color::Gote)] {
            for (reason, r) in [
                ("Checkmate", W::Checkmate),
                ("NoLegalMoves", W::NoLegalMoves),
                ("PerpetualCheck", W::PerpetualCheck),
                ("Repetition", W::Repetition),
                ("Declaration", W::Declaration),
                ("Counting", W::Counting),
                ("Try", W::Try),
                ("Resignation", W::Resignation),
                ("Timeout", W::Timeout),
            ] {
                cases.push((result, reason, Outcome::Win { winner, reason: r }));
            }
        }
        assert_eq!(cases.len(), every_outcome().len());
        for (result, reason, o) in cases {
            assert_eq!(outcome_from_names(result, reason), Some(o));
            assert_eq!(outcome_names(o), (result, reason));
        }
    }

    #[test]
    fn unknown_names_are_none() {
        for (result, reason) in [
            ("sente", "Aborted"),
            ("draw", "Checkmate"),
            ("black", "Checkmate"),
            ("Sente", "Checkmate"),
            ("sente", "checkmate"),
            ("", ""),
        ] {
            assert_eq!(
                outcome_from_names(result, reason),
                None,
                "{result}/{reason}"
            );
        }
    }
}
