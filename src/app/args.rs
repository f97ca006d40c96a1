//! The one reading of the arguments both front ends take (the console's
//! `key=value` words and Discord's options), so that a value means the same
//! everywhere and a value nobody understands is refused everywhere: Discord
//! once dropped an unknown handicap silently where the console refused it.

use super::computer::{level_from, ComputerOptions};
use super::message::Refusal;
use super::stored::{handicap_from, handicap_name, rule_from};
use super::{ChallengeOptions, MAX_STAKE};
use crate::shogi::{Color, EnteringKingRule, Handicap, Position, Variant};
use crate::store::Ranking;

/// The words a refusal offers for each argument that takes one of a few
/// (each is accepted; a test checks it).
const VARIANTS: [&str; 2] = ["standard", "minishogi"];
const RULES: [&str; 3] = ["declaration", "counting", "try"];
const COLORS: [&str; 3] = ["sente", "gote", "random"];
const RANKINGS: [&str; 3] = ["elo", "points", "taler"];
const LEVELS: [&str; 4] = ["beginner", "easy", "medium", "strong"];
pub(super) const LANGUAGES: [&str; 3] = ["en", "de", "auto"];

/// The refusal of `key=value` where `key` takes one of `choices`.
pub(super) fn not_one_of<'c>(
    key: &str,
    value: &str,
    choices: impl IntoIterator<Item = &'c str>,
) -> Refusal {
    Refusal::NotOneOf {
        key: key.into(),
        value: value.into(),
        choices: choices.into_iter().collect::<Vec<_>>().join(", "),
    }
}

/// `Ok` when `value` is one of `choices`, else their refusal.
pub(super) fn one_of(key: &str, value: &str, choices: &[&str]) -> Result<(), Refusal> {
    if choices.contains(&value) {
        Ok(())
    } else {
        Err(not_one_of(key, value, choices.iter().copied()))
    }
}

/// `standard` (`shogi`) or `minishogi` (`mini`).
pub fn variant_arg(value: Option<&str>) -> Result<Option<Variant>, Refusal> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None => Ok(None),
        Some("standard" | "shogi") => Ok(Some(Variant::Standard)),
        Some("minishogi" | "mini") => Ok(Some(Variant::Minishogi)),
        Some(_) => Err(not_one_of("variant", value.unwrap_or_default(), VARIANTS)),
    }
}

/// A handicap by its stored or typed name.
pub fn handicap_arg(value: Option<&str>) -> Result<Option<Handicap>, Refusal> {
    value
        .map(|h| {
            handicap_from(h)
                .ok_or_else(|| not_one_of("handicap", h, Handicap::ALL.map(handicap_name)))
        })
        .transpose()
}

/// An entering-king rule by its stored or typed name.
pub fn rule_arg(value: Option<&str>) -> Result<Option<EnteringKingRule>, Refusal> {
    value
        .map(|r| rule_from(r).ok_or_else(|| not_one_of("rule", r, RULES)))
        .transpose()
}

/// The caller's colour: `sente` (`black`), `gote` (`white`), or `random`
/// (`furigoma`, also when not given) as `None`.
pub fn color_arg(value: Option<&str>) -> Result<Option<Color>, Refusal> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("random" | "furigoma") => Ok(None),
        Some("sente" | "black") => Ok(Some(Color::Sente)),
        Some("gote" | "white") => Ok(Some(Color::Gote)),
        Some(_) => Err(not_one_of("color", value.unwrap_or_default(), COLORS)),
    }
}

/// What a leaderboard ranks by: `elo` (also `rating`, the default),
/// `points` or `taler`.
pub fn ranking_arg(value: Option<&str>) -> Result<Ranking, Refusal> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("elo" | "rating") => Ok(Ranking::Elo),
        Some("points" | "punkte") => Ok(Ranking::Points),
        Some("taler") => Ok(Ranking::Taler),
        Some(_) => Err(not_one_of("by", value.unwrap_or_default(), RANKINGS)),
    }
}

/// What `/challenge` was given, as text (missing: the default).
#[derive(Clone, Debug, Default)]
pub struct ChallengeArgs<'a> {
    /// `variant`.
    pub variant: Option<&'a str>,
    /// `handicap`.
    pub handicap: Option<&'a str>,
    /// `rule`.
    pub rule: Option<&'a str>,
    /// `days`.
    pub days: Option<i64>,
    /// `rated` (missing: rated when the game can be).
    pub rated: Option<bool>,
    /// `color`.
    pub color: Option<&'a str>,
    /// A custom start position (its board size decides the variant).
    pub start: Option<Position>,
    /// `stake`: Taler each player puts in (rated games only).
    pub stake: Option<i64>,
    /// `sennichite`: replay a sennichite at once with colours swapped.
    pub sennichite_replay: Option<bool>,
}

impl ChallengeArgs<'_> {
    /// The options, or why the arguments make no sense.
    pub fn options(self) -> Result<ChallengeOptions, Refusal> {
        let mut o = ChallengeOptions::default();
        if let Some(v) = variant_arg(self.variant)? {
            o.variant = v;
        }
        o.handicap = handicap_arg(self.handicap)?;
        if let Some(r) = rule_arg(self.rule)? {
            o.rule = r;
        }
        if let Some(d) = self.days {
            o.days = d;
            o.days_given = true;
        }
        o.color = color_arg(self.color)?;
        if let Some(pos) = self.start {
            o.variant = pos.variant();
            o.start = Some(pos);
        }
        // Only even 9×9 games from the start can be rated; the app refuses
        // an explicit `rated` that cannot be.
        let can_be_rated =
            o.variant == Variant::Standard && o.handicap.is_none() && o.start.is_none();
        o.rated = self.rated.unwrap_or(can_be_rated);
        o.rated_given = self.rated.is_some();
        if let Some(s) = self.stake {
            if !(0..=MAX_STAKE).contains(&s) {
                return Err(Refusal::OutOfRange {
                    key: "stake".into(),
                    value: s,
                    min: 0,
                    max: MAX_STAKE,
                });
            }
            o.stake = s;
        }
        o.sennichite_replay = self.sennichite_replay.unwrap_or(false);
        Ok(o)
    }
}

/// What `/play` was given, as text.
#[derive(Clone, Debug, Default)]
pub struct ComputerArgs<'a> {
    /// `level` (missing: easy).
    pub level: Option<&'a str>,
    /// `variant`.
    pub variant: Option<&'a str>,
    /// `handicap`.
    pub handicap: Option<&'a str>,
    /// `color`.
    pub color: Option<&'a str>,
}

impl ComputerArgs<'_> {
    /// The options, or why the arguments make no sense.
    pub fn options(self) -> Result<ComputerOptions, Refusal> {
        let level_name = self.level.unwrap_or("easy");
        Ok(ComputerOptions {
            level: level_from(level_name).ok_or_else(|| not_one_of("level", level_name, LEVELS))?,
            variant: variant_arg(self.variant)?.unwrap_or(Variant::Standard),
            handicap: handicap_arg(self.handicap)?,
            color: color_arg(self.color)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_is_read_the_same_way_or_refused_with_its_name() {
        assert_eq!(variant_arg(Some("MINI")), Ok(Some(Variant::Minishogi)));
        assert_eq!(variant_arg(None), Ok(None));
        assert_eq!(
            variant_arg(Some("chess")),
            Err(Refusal::NotOneOf {
                key: "variant".into(),
                value: "chess".into(),
                choices: "standard, minishogi".into()
            })
        );
        assert_eq!(handicap_arg(Some("lance")), Ok(Some(Handicap::Lance)));
        assert_eq!(
            handicap_arg(Some("queen")),
            Err(Refusal::NotOneOf {
                key: "handicap".into(),
                value: "queen".into(),
                choices: "lance, bishop, rook, rook-lance, 2-pieces, 4-pieces, 6-pieces, \
                          8-pieces, 10-pieces"
                    .into()
            })
        );
        assert_eq!(rule_arg(Some("24")), Ok(Some(EnteringKingRule::Counting24)));
        assert!(rule_arg(Some("31")).is_err());
        assert_eq!(color_arg(Some("white")), Ok(Some(Color::Gote)));
        assert_eq!(color_arg(Some("furigoma")), Ok(None));
        assert!(color_arg(Some("green")).is_err());
    }

    #[test]
    fn every_word_a_refusal_offers_is_accepted() {
        for v in VARIANTS {
            assert!(variant_arg(Some(v)).unwrap().is_some(), "{v}");
        }
        for r in RULES {
            assert!(rule_arg(Some(r)).unwrap().is_some(), "{r}");
        }
        for c in COLORS {
            assert!(color_arg(Some(c)).is_ok(), "{c}");
        }
        for r in RANKINGS {
            assert!(ranking_arg(Some(r)).is_ok(), "{r}");
        }
        for l in LEVELS {
            let args = ComputerArgs {
                level: Some(l),
                ..Default::default()
            };
            assert!(args.options().is_ok(), "{l}");
        }
        let Err(Refusal::NotOneOf { choices, .. }) = handicap_arg(Some("ten")) else {
            panic!("handicap=ten is not a handicap");
        };
        for h in choices.split(", ") {
            assert!(handicap_arg(Some(h)).unwrap().is_some(), "{h}");
        }
    }

    #[test]
    fn challenges_are_rated_by_default_only_when_they_can_be() {
        let even = ChallengeArgs::default().options().unwrap();
        assert!(even.rated);
        let handicap = ChallengeArgs {
            handicap: Some("bishop"),
            ..Default::default()
        }
        .options()
        .unwrap();
        assert!(!handicap.rated);
        let mini = ChallengeArgs {
            variant: Some("minishogi"),
            ..Default::default()
        }
        .options()
        .unwrap();
        assert!(!mini.rated);
        assert!(ChallengeArgs {
            handicap: Some("nonsense"),
            ..Default::default()
        }
        .options()
        .is_err());
    }

    #[test]
    fn the_computer_refuses_an_unknown_handicap_or_level() {
        assert!(ComputerArgs {
            handicap: Some("nonsense"),
            ..Default::default()
        }
        .options()
        .is_err());
        assert!(ComputerArgs {
            level: Some("godlike"),
            ..Default::default()
        }
        .options()
        .is_err());
        let o = ComputerArgs::default().options().unwrap();
        assert_eq!(o.variant, Variant::Standard);
        assert_eq!(o.color, None);
    }
}
