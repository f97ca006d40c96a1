//! Sentences of the app layer: every [`Msg`] and [`Refusal`] in English and German.

use super::{Lang, Localize};
use crate::app::{
    ButtonAction, ChallengeSummary, Ending, GameLine, Msg, Refusal, StartProblem, Swing, Who,
};
use crate::engine::comment::Comment;
use crate::shogi::{DeclarationMissing, DrawReason, Handicap, Outcome, PieceKind, WinReason};
use crate::store::Ranking;

/// A Unix time as `YYYY-MM-DD HH:MM UTC`.
#[must_use]
pub fn utc(t: i64) -> String {
    let (y, m, d) = civil(t);
    let secs = t.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60
    )
}

/// The UTC calendar date (year, month, day) of Unix time `t`.
#[must_use]
pub fn civil(t: i64) -> (i64, i64, i64) {
    let days = t.div_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A moment in Discord's timestamp markup, `<t:UNIX:f>`: Discord shows it in
/// each reader's own time zone and language. Readers outside Discord get
/// [`plain_times`].
fn at(t: i64) -> String {
    format!("<t:{t}:f>")
}

/// A moment with the time until it beside it, `<t:UNIX:f> (<t:UNIX:R>)`:
/// Discord shows "4 December 2026 09:24 (in 2 days)".
pub(super) fn at_rel(t: i64) -> String {
    format!("<t:{t}:f> (<t:{t}:R>)")
}

/// Text for a reader outside Discord (the console): every timestamp
/// `<t:UNIX:STYLE>` becomes [`utc`] text, and a relative one written in
/// parentheses beside another (` (<t:UNIX:R>)`, from [`at_rel`]) is left out,
/// since the absolute time already says it. Anything else is kept as it is.
#[must_use]
pub fn plain_times(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("<t:") {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        match parse_timestamp(rest) {
            Some((t, style, len)) => {
                let after = &rest[len..];
                if style == 'R' && out.ends_with(" (") && after.starts_with(')') {
                    out.truncate(out.len() - 2);
                    rest = &after[1..];
                } else {
                    out.push_str(&utc(t));
                    rest = after;
                }
            }
            None => {
                out.push('<');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `<t:UNIX>` or `<t:UNIX:S>` at the start of `s` (S one of Discord's
/// styles): the time, the style (`f` when none is given) and the length.
fn parse_timestamp(s: &str) -> Option<(i64, char, usize)> {
    let body = s.strip_prefix("<t:")?;
    let end = body.find('>')?;
    let inner = &body[..end];
    let (num, style) = match inner.split_once(':') {
        Some((n, st)) => {
            let mut chars = st.chars();
            let c = chars.next()?;
            if chars.next().is_some() || !"tTdDfFR".contains(c) {
                return None;
            }
            (n, c)
        }
        None => (inner, 'f'),
    };
    if num.is_empty() || num.len() > 12 || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((num.parse().ok()?, style, 3 + end + 1))
}

/// The UTC date (`YYYY-MM-DD`) of a day number (days since 1970-01-01).
fn date_of_day(day: i64) -> String {
    utc(day.saturating_mul(86_400))
        .split(' ')
        .next()
        .unwrap_or_default()
        .to_string()
}

fn duration(secs: i64, lang: Lang) -> String {
    let h = secs.max(0) / 3600;
    let (d, h) = (h / 24, h % 24);
    match (lang, d) {
        (Lang::En, 0) => format!("{h} h"),
        (Lang::En, _) => format!("{d} d {h} h"),
        (Lang::De, 0) => format!("{h} Std."),
        (Lang::De, _) => format!("{d} T. {h} Std."),
    }
}

/// An English and a German name.
type Names = (&'static str, &'static str);

/// The values of the `/settings` options with their names in English and
/// German: the Discord command offers them as choices and the `/settings`
/// answer names them the same way.
const SETTING_VALUES: &[(&str, &[(&str, Names)])] = &[
    (
        "notation",
        &[
            ("western", ("Western (P-7f)", "Westlich (P-7f)")),
            (
                "western-numeric",
                ("Western numeric (P-76)", "Westlich numerisch (P-76)"),
            ),
            ("japanese", ("Japanese (７六歩)", "Japanisch (７六歩)")),
            ("usi", ("USI (7g7f)", "USI (7g7f)")),
        ],
    ),
    (
        "style",
        &[
            ("kanji", ("One kanji", "Ein Kanji")),
            ("kanji2", ("Two kanji", "Zwei Kanji")),
            (
                "international",
                ("International symbols", "Internationale Symbole"),
            ),
            ("pictogram", ("Pictograms", "Piktogramme")),
            (
                "pictogram-kanji",
                (
                    "Pictograms with a small kanji",
                    "Piktogramme mit kleinem Kanji",
                ),
            ),
        ],
    ),
    (
        "danger",
        &[
            (
                "auto",
                (
                    "Against Beginner and Easy, in lessons",
                    "Gegen Anfänger und Leicht, in Lektionen",
                ),
            ),
            (
                "always",
                ("In every unrated game", "In jeder ungewerteten Partie"),
            ),
            ("off", ("Off", "Aus")),
        ],
    ),
    (
        "theme",
        &[("light", ("Light", "Hell")), ("dark", ("Dark", "Dunkel"))],
    ),
    (
        "orientation",
        &[
            ("own", ("My side at the bottom", "Meine Seite unten")),
            ("sente", ("Sente at the bottom", "Sente unten")),
        ],
    ),
    (
        "language",
        &[
            ("auto", ("My Discord language", "Meine Discord-Sprache")),
            ("en", ("English", "Englisch")),
            ("de", ("German", "Deutsch")),
        ],
    ),
];

/// The values of the `/settings` option `option` (`notation`, `style`,
/// `theme`, `orientation`, `language`) and their English and German names.
#[must_use]
pub fn setting_choices(option: &str) -> &'static [(&'static str, Names)] {
    SETTING_VALUES
        .iter()
        .find(|(o, _)| *o == option)
        .map_or(&[], |(_, values)| values)
}

/// The name of a `/settings` value in `lang` (the value itself if unknown).
fn setting_value(option: &str, value: &str, lang: Lang) -> String {
    setting_choices(option)
        .iter()
        .find(|(v, _)| *v == value)
        .map_or_else(
            || value.to_string(),
            |(_, (en, de))| match lang {
                Lang::En => (*en).to_string(),
                Lang::De => (*de).to_string(),
            },
        )
}

/// `n` and its noun, singular for exactly one (English and German alike:
/// "1 day", "0 days", "2 Tage").
pub(super) fn n_of(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One remark of the move commentary, as a sentence.
fn comment_text(c: &Comment, mover: &Who, lang: Lang) -> String {
    match (c, lang) {
        (Comment::ThreatensMate, Lang::En) => format!("{} threatens mate.", name(mover)),
        (Comment::ThreatensMate, Lang::De) => format!("{} droht Matt.", name(mover)),
        (Comment::Material(0), Lang::En) => "Material is even.".into(),
        (Comment::Material(0), Lang::De) => "Das Material ist ausgeglichen.".into(),
        (Comment::Material(n), Lang::En) => format!(
            "Material: {} ahead by {}.",
            if *n > 0 { "☗" } else { "☖" },
            n_of(n.abs(), "pawn", "pawns")
        ),
        (Comment::Material(n), Lang::De) => format!(
            "Material: {} liegt {} vorn.",
            if *n > 0 { "☗" } else { "☖" },
            n_of(n.abs(), "Bauer", "Bauern")
        ),
        (Comment::AttacksLoose(k, sq), Lang::En) => format!(
            "It attacks the undefended {} on {sq}.",
            super::piece_name(*k, lang)
        ),
        (Comment::AttacksLoose(k, sq), Lang::De) => format!(
            "Angegriffen und ungedeckt: {} auf {sq}.",
            super::piece_name(*k, lang)
        ),
        (Comment::LeavesHanging(k, sq), Lang::En) => format!(
            "It leaves the {} on {sq} attacked and undefended.",
            super::piece_name(*k, lang)
        ),
        (Comment::LeavesHanging(k, sq), Lang::De) => format!(
            "Danach steht {} auf {sq} angegriffen und ungedeckt.",
            super::piece_name(*k, lang)
        ),
        (Comment::KingEntersCamp, Lang::En) => format!(
            "{}'s king enters the opponent's camp (towards an entering-king win).",
            name(mover)
        ),
        (Comment::KingEntersCamp, Lang::De) => format!(
            "Der König von {} zieht ins gegnerische Lager ein (Richtung Einzugssieg).",
            name(mover)
        ),
    }
}

/// A span of vacation in days, to a tenth ("1 day", "2.5 days", "2,5 Tage").
fn days_span(secs: i64, lang: Lang) -> String {
    let number = days_number(secs, lang);
    let one = number == "1";
    match lang {
        Lang::En => format!("{number} {}", if one { "day" } else { "days" }),
        Lang::De => format!("{number} {}", if one { "Tag" } else { "Tage" }),
    }
}

/// Something followed, as a sentence names it.
fn follow_item(i: &crate::app::FollowItem, lang: Lang) -> String {
    use crate::app::FollowItem;
    match (i, lang) {
        (
            FollowItem::Game {
                game_id,
                sente,
                gote,
            },
            Lang::En,
        ) => format!("game #{game_id} (☗ {} vs ☖ {})", name(sente), name(gote)),
        (
            FollowItem::Game {
                game_id,
                sente,
                gote,
            },
            Lang::De,
        ) => format!(
            "der Partie #{game_id} (☗ {} gegen ☖ {})",
            name(sente),
            name(gote)
        ),
        (FollowItem::GoneGame(id), Lang::En) => format!("game #{id} (gone)"),
        (FollowItem::GoneGame(id), Lang::De) => format!("der Partie #{id} (gelöscht)"),
        (FollowItem::Member(w), Lang::En) => format!("{}'s games", name(w)),
        (FollowItem::Member(w), Lang::De) => format!("den Partien von {}", name(w)),
    }
}

/// One premove line: "2. if 8c8d → 2f2e, then if 8d8e → 2e2d".
fn premove_line((n, moves): &(i64, Vec<String>), lang: Lang) -> String {
    let pairs: Vec<String> = moves
        .chunks(2)
        .map(|p| {
            let answer = p.get(1).map_or("", String::as_str);
            match lang {
                Lang::En => format!("if {} → {answer}", p[0]),
                Lang::De => format!("wenn {} → {answer}", p[0]),
            }
        })
        .collect();
    let then = match lang {
        Lang::En => ", then ",
        Lang::De => ", dann ",
    };
    format!("{n}. {}", pairs.join(then))
}

/// A number of days to a tenth, without its noun.
fn days_number(secs: i64, lang: Lang) -> String {
    let tenths = (secs.max(0) * 10 + 43_200) / 86_400;
    if tenths % 10 == 0 {
        return (tenths / 10).to_string();
    }
    let sep = match lang {
        Lang::En => '.',
        Lang::De => ',',
    };
    format!("{}{sep}{}", tenths / 10, tenths % 10)
}

/// "X of Y days used" in the language's grammar.
fn days_used(used: i64, allowance: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{} of {} days used",
            days_number(used, lang),
            days_number(allowance, lang)
        ),
        Lang::De => format!(
            "{} von {} Tagen genommen",
            days_number(used, lang),
            days_number(allowance, lang)
        ),
    }
}

/// Points (of the points table beside Elo), with their noun.
fn n_points(n: i64, lang: Lang) -> String {
    match lang {
        Lang::En => n_of(n, "point", "points"),
        Lang::De => n_of(n, "Punkt", "Punkte"),
    }
}

/// Wins, losses and draws, each with its noun.
fn record(wins: i64, losses: i64, draws: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{}, {}, {}",
            n_of(wins, "win", "wins"),
            n_of(losses, "loss", "losses"),
            n_of(draws, "draw", "draws")
        ),
        Lang::De => format!(
            "{}, {}, {draws} Remis",
            n_of(wins, "Sieg", "Siege"),
            n_of(losses, "Niederlage", "Niederlagen")
        ),
    }
}

fn yes_no(b: bool, lang: Lang) -> &'static str {
    match (b, lang) {
        (true, Lang::En) => "yes",
        (false, Lang::En) => "no",
        (true, Lang::De) => "ja",
        (false, Lang::De) => "nein",
    }
}

fn summary(s: &ChallengeSummary, lang: Lang) -> String {
    let variant = match (s.variant.as_str(), lang) {
        ("minishogi", _) => "minishogi".to_string(),
        (_, Lang::En) => "shogi".to_string(),
        (_, Lang::De) => "Shogi".to_string(),
    };
    let handicap = s.handicap.as_ref().map_or(String::new(), |h| match lang {
        Lang::En => format!(", handicap {h}"),
        Lang::De => format!(", Vorgabe {h}"),
    });
    let rule = match (s.rule.as_str(), lang) {
        ("counting24", Lang::En) => "entering king: 24-point counting",
        ("counting24", Lang::De) => "Eroberter König: 24-Punkte-Zählung",
        ("try", Lang::En) => "entering king: try rule",
        ("try", Lang::De) => "Eroberter König: Try-Regel",
        (_, Lang::En) => "entering king: 27-point declaration",
        (_, Lang::De) => "Eroberter König: 27-Punkte-Erklärung",
    };
    let color = match (s.color.as_str(), lang) {
        ("sente", Lang::En) => "challenger plays Sente",
        ("sente", Lang::De) => "Herausforderer spielt Sente",
        ("gote", Lang::En) => "challenger plays Gote",
        ("gote", Lang::De) => "Herausforderer spielt Gote",
        ("league", Lang::En) => "colours by the league's pairing",
        ("league", Lang::De) => "Farben laut Ligapaarung",
        (_, Lang::En) => "colours by furigoma",
        (_, Lang::De) => "Farben per Furigoma",
    };
    // The terms an opponent agrees to by accepting that are not the
    // defaults: a set-up position, a stake, sennichite replayed at once.
    let mut extra = String::new();
    if s.custom_start {
        extra.push_str(match lang {
            Lang::En => ", from a set-up position (shown below)",
            Lang::De => ", ab einer gestellten Stellung (siehe unten)",
        });
    }
    if s.stake > 0 {
        extra.push_str(&match lang {
            Lang::En => format!(", stake {} Taler each (the winner takes both)", s.stake),
            Lang::De => format!(
                ", Einsatz {} Taler je Spieler (der Sieger erhält beide)",
                s.stake
            ),
        });
    }
    if s.sennichite_replay {
        extra.push_str(match lang {
            Lang::En => ", sennichite: replayed at once with colours swapped",
            Lang::De => ", Sennichite: sofort neu mit getauschten Farben",
        });
    }
    match lang {
        Lang::En => format!(
            "{variant}{handicap}, {} per move, {}, {rule}, {color}{extra}",
            n_of(s.days, "day", "days"),
            if s.rated { "rated" } else { "friendly" }
        ),
        Lang::De => format!(
            "{variant}{handicap}, {} pro Zug, {}, {rule}, {color}{extra}",
            n_of(s.days, "Tag", "Tage"),
            if s.rated {
                "gewertet"
            } else {
                "freundschaftlich"
            }
        ),
    }
}

fn win_reason(r: WinReason, lang: Lang) -> &'static str {
    match (r, lang) {
        (WinReason::Checkmate, Lang::En) => "checkmate",
        (WinReason::Checkmate, Lang::De) => "Matt",
        (WinReason::NoLegalMoves, Lang::En) => "no legal move left",
        (WinReason::NoLegalMoves, Lang::De) => "kein legaler Zug mehr",
        (WinReason::PerpetualCheck, Lang::En) => "perpetual check (the checking side loses)",
        (WinReason::PerpetualCheck, Lang::De) => "Dauerschach (die schachgebende Seite verliert)",
        (WinReason::Repetition, Lang::En) => "fourth repetition (minishogi: Sente loses)",
        (WinReason::Repetition, Lang::De) => "vierte Wiederholung (Minishogi: Sente verliert)",
        (WinReason::Declaration, Lang::En) => "entering-king declaration",
        (WinReason::Declaration, Lang::De) => "Erklärung des eingezogenen Königs",
        (WinReason::Counting, Lang::En) => "counting (under 24 points loses)",
        (WinReason::Counting, Lang::De) => "Zählung (unter 24 Punkten verliert)",
        (WinReason::Try, Lang::En) => "try: the king reached the opponent king's square",
        (WinReason::Try, Lang::De) => {
            "Try: der König hat das Startfeld des gegnerischen Königs erreicht"
        }
        (WinReason::Resignation, Lang::En) => "resignation",
        (WinReason::Resignation, Lang::De) => "Aufgabe",
        (WinReason::Timeout, Lang::En) => "the move deadline passed",
        (WinReason::Timeout, Lang::De) => "die Zugfrist ist abgelaufen",
    }
}

fn ending(e: &Ending, lang: Lang) -> String {
    let mut s = match (e.outcome, lang) {
        (Outcome::Win { reason, .. }, Lang::En) => format!(
            "{} wins by {}.",
            e.winner.as_ref().map_or("?", |w| w.name.as_str()),
            win_reason(reason, lang)
        ),
        (Outcome::Win { reason, .. }, Lang::De) => format!(
            "{} gewinnt: {}.",
            e.winner.as_ref().map_or("?", |w| w.name.as_str()),
            win_reason(reason, lang)
        ),
        (Outcome::Draw(DrawReason::Sennichite), Lang::En) => {
            "Draw by sennichite (fourth repetition). A rematch with colours swapped is offered.".into()
        }
        (Outcome::Draw(DrawReason::Sennichite), Lang::De) => {
            "Remis durch Sennichite (vierte Wiederholung). Eine Revanche mit getauschten Farben wird angeboten.".into()
        }
        (Outcome::Draw(DrawReason::MaxPlies), Lang::En) => "Draw: 320 plies without result.".into(),
        (Outcome::Draw(DrawReason::MaxPlies), Lang::De) => "Remis: 320 Halbzüge ohne Ergebnis.".into(),
        (Outcome::Draw(DrawReason::Counting), Lang::En) => "Draw: both sides have 24 points or more.".into(),
        (Outcome::Draw(DrawReason::Counting), Lang::De) => "Remis: beide Seiten haben mindestens 24 Punkte.".into(),
        (Outcome::Aborted, Lang::En) => "The game was aborted before ply 10: no result, no rating change.".into(),
        (Outcome::Aborted, Lang::De) => {
            "Die Partie wurde vor dem 10. Halbzug abgebrochen: kein Ergebnis, keine Wertungsänderung.".into()
        }
    };
    let won = e.winner.as_ref().map(|w| w.id);
    for (who, before, after) in &e.ratings {
        let points = match won {
            Some(w) if w == who.id => format!(", +{}", n_points(crate::app::POINTS_PER_GAME, lang)),
            Some(_) => format!(", −{}", n_points(crate::app::POINTS_PER_GAME, lang)),
            None => String::new(),
        };
        s.push_str(&format!(
            " {}: {:.0} → {:.0}{points}.",
            who.name, before, after
        ));
    }
    if e.pot > 0 {
        s.push_str(&match (&e.winner, lang) {
            (Some(w), Lang::En) => format!(" {} takes the pot of {} Taler.", w.name, e.pot),
            (Some(w), Lang::De) => format!(" {} gewinnt den Einsatz von {} Taler.", w.name, e.pot),
            (None, Lang::En) => format!(" The stakes go back: {} Taler each.", e.pot / 2),
            (None, Lang::De) => format!(" Die Einsätze gehen zurück: je {} Taler.", e.pot / 2),
        });
    }
    s
}

fn game_line(g: &GameLine, lang: Lang) -> String {
    let deadline = g.deadline.map_or(String::new(), |d| match lang {
        Lang::En => format!(", deadline {}", at(d)),
        Lang::De => format!(", Frist {}", at(d)),
    });
    match lang {
        Lang::En => format!(
            "#{} vs {} — {} (ply {}{deadline})",
            g.game_id,
            g.opponent.name,
            if g.your_turn {
                "your move"
            } else {
                "their move"
            },
            g.ply
        ),
        Lang::De => format!(
            "#{} gegen {} — {} (Halbzug {}{deadline})",
            g.game_id,
            g.opponent.name,
            if g.your_turn {
                "du bist am Zug"
            } else {
                "Gegner am Zug"
            },
            g.ply
        ),
    }
}

fn name(w: &Who) -> &str {
    &w.name
}

impl Localize for Msg {
    fn localize(&self, lang: Lang) -> String {
        use super::league;
        match (self, lang) {
            (Msg::LeagueCreated { league: l, by }, _) => league::created(l, by, lang),
            (Msg::LeagueJoined { league: l, who }, _) => league::joined(l, who, false, lang),
            (Msg::LeagueLeft { league: l, who }, _) => league::joined(l, who, true, lang),
            (Msg::ConfirmWithdraw { league: l }, _) => league::confirm_withdraw(l, lang),
            (Msg::LeagueWithdrew { league: l, who, resigned }, _) => league::withdrew(l, who, resigned, lang),
            (Msg::LeagueStartedNow { league: l }, _) => league::started_now(l, lang),
            (Msg::LeagueRound { league: l, round, pairings }, _) => league::round(l, *round, pairings, true, lang),
            (Msg::LeaguePairings { league: l, round, pairings }, _) => league::round(l, *round, pairings, false, lang),
            (Msg::LeagueGameIntro { league_id, name, round, rounds }, _) => league::game_intro(*league_id, name, *round, *rounds, lang),
            (Msg::LeagueStandings { league: l, rows, last }, _) => league::standings(l, rows, *last, lang),
            (Msg::LeagueCancelled { league: l, need }, _) => league::cancelled(l, *need, lang),
            (Msg::LeagueList { leagues }, _) => league::list(leagues, lang),
            (Msg::ChallengeMade { id, challenger, challenged, options }, Lang::En) => match challenged {
                Some(c) => format!("{} challenges {} (challenge #{id}): {}.", name(challenger), name(c), summary(options, lang)),
                None => format!("{} offers an open challenge (#{id}), anyone may accept: {}.", name(challenger), summary(options, lang)),
            },
            (Msg::ChallengeMade { id, challenger, challenged, options }, Lang::De) => match challenged {
                Some(c) => format!("{} fordert {} heraus (Herausforderung #{id}): {}.", name(challenger), name(c), summary(options, lang)),
                None => format!("{} bietet eine offene Herausforderung an (#{id}), jeder darf annehmen: {}.", name(challenger), summary(options, lang)),
            },
            (Msg::ChallengeAccepted { id, challenger, by, game_id }, Lang::En) => format!("Challenge #{id} by {}: accepted by {}, game #{game_id}.", name(challenger), name(by)),
            (Msg::ChallengeAccepted { id, challenger, by, game_id }, Lang::De) => format!("Herausforderung #{id} von {}: angenommen von {}, Partie #{game_id}.", name(challenger), name(by)),
            (Msg::ChallengeDeclined { id, by }, Lang::En) => format!("{} declined challenge #{id}.", name(by)),
            (Msg::ChallengeDeclined { id, by }, Lang::De) => format!("{} hat Herausforderung #{id} abgelehnt.", name(by)),
            (Msg::ChallengeCancelled { id }, Lang::En) => format!("Challenge #{id} was withdrawn."),
            (Msg::ChallengeCancelled { id }, Lang::De) => format!("Herausforderung #{id} wurde zurückgezogen."),
            (Msg::ChallengeExpired { id, challenger }, Lang::En) => {
                format!("Challenge #{id} by {} expired: nobody accepted it within 7 days.", name(challenger))
            }
            (Msg::ChallengeExpired { id, challenger }, Lang::De) => {
                format!("Herausforderung #{id} von {} ist abgelaufen: niemand hat sie innerhalb von 7 Tagen angenommen.", name(challenger))
            }
            (Msg::GameStarted { game_id, sente, gote, to_move, deadline, options }, Lang::En) => format!(
                "Game #{game_id} begins: ☗ {} (Sente) vs ☖ {} (Gote); {}. {} to move{}.",
                name(sente),
                name(gote),
                summary(options, lang),
                name(to_move),
                deadline.map_or(String::new(), |d| format!(" by {}", at_rel(d)))
            ),
            (Msg::GameStarted { game_id, sente, gote, to_move, deadline, options }, Lang::De) => format!(
                "Partie #{game_id} beginnt: ☗ {} (Sente) gegen ☖ {} (Gote); {}. {} ist am Zug{}.",
                name(sente),
                name(gote),
                summary(options, lang),
                name(to_move),
                deadline.map_or(String::new(), |d| format!(" bis {}", at_rel(d)))
            ),
            (Msg::Danger { game_id, hanging, piece }, _) => {
                let pieces = |v: &Vec<(PieceKind, String)>| {
                    v.iter().map(|(k, sq)| format!("{} {sq}", super::piece_name(*k, lang))).collect::<Vec<_>>().join(", ")
                };
                let mut s = match (hanging.is_empty(), lang) {
                    (true, Lang::En) => format!("Danger check, game #{game_id}: none of your pieces hangs."),
                    (true, Lang::De) => format!("Gefahrencheck, Partie #{game_id}: keiner deiner Steine hängt."),
                    (false, Lang::En) => format!("Danger check, game #{game_id}: attacked and not defended (red): {}.", pieces(hanging)),
                    (false, Lang::De) => format!("Gefahrencheck, Partie #{game_id}: angegriffen und ungedeckt (rot): {}.", pieces(hanging)),
                };
                if let Some((kind, at, safe, exposed)) = piece {
                    let what = super::piece_at_label(*kind, at.as_deref().and_then(crate::shogi::Square::from_usi), lang);
                    s.push(' ');
                    s.push_str(&match (exposed.is_empty(), lang) {
                        (true, Lang::En) => format!("Your {what}: {} (green), none where it could be taken for free.", n_of(*safe as i64, "safe square", "safe squares")),
                        (true, Lang::De) => format!("Dein Stein ({what}): {} (grün), keins, auf dem er umsonst geschlagen werden kann.", n_of(*safe as i64, "sicheres Feld", "sichere Felder")),
                        (false, Lang::En) => format!("Your {what}: {} (green); it could be taken without recapture on {} (orange).", n_of(*safe as i64, "safe square", "safe squares"), exposed.join(", ")),
                        (false, Lang::De) => format!("Dein Stein ({what}): {} (grün); ohne Rückschlag geschlagen werden kann er auf {} (orange).", n_of(*safe as i64, "sicheres Feld", "sichere Felder"), exposed.join(", ")),
                    });
                }
                s
            }
            (Msg::SennichiteReplay { game_id, new_game, sente, gote, to_move, deadline }, Lang::En) => format!(
                "Game #{game_id} is replayed at once, as the challenge asked: game #{new_game}, colours swapped, ☗ {} (Sente) vs ☖ {} (Gote). {} to move{}.",
                name(sente),
                name(gote),
                name(to_move),
                deadline.map_or(String::new(), |d| format!(" by {}", at_rel(d)))
            ),
            (Msg::SennichiteReplay { game_id, new_game, sente, gote, to_move, deadline }, Lang::De) => format!(
                "Partie #{game_id} wird sofort neu gespielt, wie die Herausforderung es wollte: Partie #{new_game} mit getauschten Farben, ☗ {} (Sente) gegen ☖ {} (Gote). {} ist am Zug{}.",
                name(sente),
                name(gote),
                name(to_move),
                deadline.map_or(String::new(), |d| format!(" bis {}", at_rel(d)))
            ),
            (Msg::ComputerGameStarted { game_id, sente, gote, to_move }, Lang::En) => format!(
                "Game #{game_id} begins: ☗ {} (Sente) vs ☖ {} (Gote); friendly, no deadline. {} to move.",
                name(sente),
                name(gote),
                name(to_move)
            ),
            (Msg::ComputerGameStarted { game_id, sente, gote, to_move }, Lang::De) => format!(
                "Partie #{game_id} beginnt: ☗ {} (Sente) gegen ☖ {} (Gote); freundschaftlich, ohne Frist. {} ist am Zug.",
                name(sente),
                name(gote),
                name(to_move)
            ),
            (Msg::MovePlayed { game_id, mover, text, captured, promoted, check, repetitions, comments, next, deadline, ending: end }, _) => {
                let mut s = match lang {
                    Lang::En => format!("#{game_id}: {} played {text}", name(mover)),
                    Lang::De => format!("#{game_id}: {} zieht {text}", name(mover)),
                };
                if let Some(k) = captured {
                    s.push_str(&match lang {
                        Lang::En => format!(", capturing a {}", super::piece_name(*k, lang)),
                        Lang::De => format!(", schlägt {}", super::piece_name(*k, lang)),
                    });
                }
                if *promoted {
                    s.push_str(match lang {
                        Lang::En => ", promoting",
                        Lang::De => ", mit Umwandlung",
                    });
                }
                s.push('.');
                if *check && end.is_none() {
                    s.push_str(match lang {
                        Lang::En => " Check!",
                        Lang::De => " Schach!",
                    });
                }
                if *repetitions >= 3 && end.is_none() {
                    s.push_str(&match lang {
                        Lang::En => format!(" Warning: this position has now occurred {repetitions} times; the fourth time ends the game (sennichite)."),
                        Lang::De => format!(" Achtung: diese Stellung ist jetzt {repetitions}-mal aufgetreten; beim vierten Mal endet die Partie (Sennichite)."),
                    });
                }
                for c in comments {
                    s.push(' ');
                    s.push_str(&comment_text(c, mover, lang));
                }
                match (end, next) {
                    (Some(e), _) => {
                        s.push(' ');
                        s.push_str(&ending(e, lang));
                    }
                    (None, Some(n)) => s.push_str(&match lang {
                        Lang::En => format!(" {} to move{}.", name(n), deadline.map_or(String::new(), |d| format!(" by {}", at_rel(d)))),
                        Lang::De => format!(" {} ist am Zug{}.", name(n), deadline.map_or(String::new(), |d| format!(" bis {}", at_rel(d)))),
                    }),
                    (None, None) => {}
                }
                s
            }
            (Msg::VacationStarted { games, paused, until, left }, Lang::En) => format!(
                "You are on vacation: the deadlines of your games stop while you are away ({} against members, {} paused now because it is your move). {} of vacation left this year: it ends by itself at {} at the latest. `/vacation off` when you are back.",
                n_of(*games as i64, "game", "games"), paused, days_span(*left, lang), at(*until)
            ),
            (Msg::VacationStarted { games, paused, until, left }, Lang::De) => format!(
                "Du bist im Urlaub: die Fristen deiner Partien ruhen, solange du weg bist ({} gegen Mitglieder, {} davon jetzt angehalten, weil du am Zug bist). Noch {} Urlaub in diesem Jahr: er endet spätestens am {} von selbst. `/urlaub aus`, wenn du zurück bist.",
                n_of(*games as i64, "Partie", "Partien"), paused, days_span(*left, lang), at(*until)
            ),
            (Msg::VacationEnded { resumed, used, allowance }, Lang::En) => format!(
                "Welcome back: the deadlines run again ({} resumed with the time they had left). Vacation this year: {}.",
                n_of(*resumed as i64, "game", "games"), days_used(*used, *allowance, lang)
            ),
            (Msg::VacationEnded { resumed, used, allowance }, Lang::De) => format!(
                "Willkommen zurück: die Fristen laufen wieder ({} mit der Zeit fortgesetzt, die sie noch hatten). Urlaub in diesem Jahr: {}.",
                n_of(*resumed as i64, "Partie", "Partien"), days_used(*used, *allowance, lang)
            ),
            (Msg::VacationStatus { since: Some(since), until, used, allowance, year }, Lang::En) => format!(
                "On vacation since {}, until {} at the latest. In {year}: {}.",
                at(*since), until.map_or_else(|| "—".to_string(), at), days_used(*used, *allowance, lang)
            ),
            (Msg::VacationStatus { since: Some(since), until, used, allowance, year }, Lang::De) => format!(
                "Im Urlaub seit {}, längstens bis {}. {year}: {}.",
                at(*since), until.map_or_else(|| "—".to_string(), at), days_used(*used, *allowance, lang)
            ),
            (Msg::VacationStatus { since: None, used, allowance, year, .. }, Lang::En) => format!(
                "Not on vacation. In {year}: {}. `/vacation on` pauses the deadlines of all your games.",
                days_used(*used, *allowance, lang)
            ),
            (Msg::VacationStatus { since: None, used, allowance, year, .. }, Lang::De) => format!(
                "Nicht im Urlaub. {year}: {}. `/urlaub an` hält die Fristen all deiner Partien an.",
                days_used(*used, *allowance, lang)
            ),
            (Msg::OpponentAway { game_id, player, until }, Lang::En) => format!(
                "Game #{game_id}: {} is on vacation until {} at the latest. Their deadline is paused; you can still move when it is your turn.",
                name(player), at(*until)
            ),
            (Msg::OpponentAway { game_id, player, until }, Lang::De) => format!(
                "Partie #{game_id}: {} ist längstens bis {} im Urlaub. Ihre Frist ruht; du kannst weiter ziehen, wenn du am Zug bist.",
                name(player), at(*until)
            ),
            (Msg::OpponentBack { game_id, player, deadline: Some(d) }, Lang::En) => format!(
                "Game #{game_id}: {} is back from vacation and to move by {}.", name(player), at(*d)
            ),
            (Msg::OpponentBack { game_id, player, deadline: Some(d) }, Lang::De) => format!(
                "Partie #{game_id}: {} ist aus dem Urlaub zurück und bis {} am Zug.", name(player), at(*d)
            ),
            (Msg::OpponentBack { game_id, player, deadline: None }, Lang::En) => format!(
                "Game #{game_id}: {} is back from vacation.", name(player)
            ),
            (Msg::OpponentBack { game_id, player, deadline: None }, Lang::De) => format!(
                "Partie #{game_id}: {} ist aus dem Urlaub zurück.", name(player)
            ),
            (Msg::Privacy { stored: false, .. }, Lang::En) => "komadai stores nothing about you: you have not used it yet.".into(),
            (Msg::Privacy { stored: false, .. }, Lang::De) => "komadai speichert nichts über dich: du hast es noch nicht benutzt.".into(),
            (Msg::Privacy { stored: true, about: a }, Lang::En) => format!(
                "What komadai stores about you: your Discord user id and display name; your settings (notation, pieces, colours, orientation, language, DMs, danger help); rating, points, Taler and vacation days; {} ({} going), {}, {}, {}, {}, {}{}. No message texts, no e-mail, nothing from other servers' channels.\n\
                 **Erase my data** deletes all of it and puts \"former member\" in place of your name in your finished games; the games themselves stay, so your opponents' records are intact. Finish or resign your running games first.",
                n_of(a.games, "game", "games"), a.active_games,
                n_of(a.rating_changes, "rating change", "rating changes"),
                n_of(a.open_challenges, "open challenge", "open challenges"),
                n_of(a.follows, "follow", "follows"),
                n_of(a.premove_lines, "premove line", "premove lines"),
                n_of(a.puzzle_records, "puzzle record", "puzzle records"),
                if a.lesson { ", your lesson progress" } else { "" },
            ),
            (Msg::Privacy { stored: true, about: a }, Lang::De) => format!(
                "Was komadai über dich speichert: deine Discord-Nutzer-ID und deinen Anzeigenamen; deine Einstellungen (Notation, Steine, Farben, Ausrichtung, Sprache, DMs, Gefahrenhilfe); Wertung, Punkte, Taler und Urlaubstage; {} ({} laufend), {}, {}, {}, {}, {}{}. Keine Nachrichtentexte, keine E-Mail, nichts aus Kanälen anderer Server.\n\
                 **Meine Daten löschen** löscht all das und setzt „former member“ an die Stelle deines Namens in deinen beendeten Partien; die Partien selbst bleiben, damit die Bilanzen deiner Gegner stimmen. Beende oder gib vorher deine laufenden Partien auf.",
                n_of(a.games, "Partie", "Partien"), a.active_games,
                n_of(a.rating_changes, "Wertungsänderung", "Wertungsänderungen"),
                n_of(a.open_challenges, "offene Herausforderung", "offene Herausforderungen"),
                n_of(a.follows, "Folgen", "Folgen"),
                n_of(a.premove_lines, "Vorauszug", "Vorauszüge"),
                n_of(a.puzzle_records, "Problem-Eintrag", "Problem-Einträge"),
                if a.lesson { ", dein Lernfortschritt" } else { "" },
            ),
            (Msg::Erased { games }, Lang::En) => format!(
                "Done: your settings, Taler, points, rating history, follows, premove lines and progress are erased. {} \"former member\" instead of your name. If you use komadai again, you start as a new member.",
                if *games == 1 { "Your 1 game now shows".to_string() } else { format!("Your {games} games now show") }
            ),
            (Msg::Erased { games }, Lang::De) => format!(
                "Erledigt: deine Einstellungen, Taler, Punkte, Wertungsverlauf, Folgen, Vorauszüge und Fortschritte sind gelöscht. {} jetzt „former member“ statt deines Namens. Benutzt du komadai wieder, beginnst du als neues Mitglied.",
                if *games == 1 { "Deine 1 Partie zeigt".to_string() } else { format!("Deine {games} Partien zeigen") }
            ),
            (Msg::Follows { items, cap }, Lang::En) if items.is_empty() => format!(
                "You follow nothing yet. `/follow game:` or `/follow member:` sends their moves to you by direct message (up to {cap})."
            ),
            (Msg::Follows { items, cap }, Lang::De) if items.is_empty() => format!(
                "Du folgst noch nichts. `/folgen partie:` oder `/folgen mitglied:` schickt dir ihre Züge als Direktnachricht (bis zu {cap})."
            ),
            (Msg::Follows { items, cap }, Lang::En) => format!(
                "You follow ({} of {cap}): {}. `/follow stop: True` ends one or all.",
                items.len(), items.iter().map(|i| follow_item(i, lang)).collect::<Vec<_>>().join("; ")
            ),
            (Msg::Follows { items, cap }, Lang::De) => format!(
                "Du folgst ({} von {cap}): {}. `/folgen stopp: True` beendet eines oder alle.",
                items.len(), items.iter().map(|i| follow_item(i, lang)).collect::<Vec<_>>().join("; ")
            ),
            (Msg::FollowStarted { item }, Lang::En) => format!(
                "You now follow {}: every move comes to you by direct message.", follow_item(item, lang)
            ),
            (Msg::FollowStarted { item }, Lang::De) => format!(
                "Du folgst jetzt {}: jeder Zug kommt als Direktnachricht zu dir.", follow_item(item, lang)
            ),
            (Msg::FollowStopped { count }, Lang::En) => format!("{} ended.", n_of(*count as i64, "follow", "follows")),
            (Msg::FollowStopped { count }, Lang::De) => format!("{} beendet.", n_of(*count as i64, "Folgen", "Folgen")),
            (Msg::FollowedMove { inner, place, .. }, Lang::En) => format!(
                "[followed] {}{}", inner.localize(lang), place.map_or_else(String::new, |p| format!("\n<#{p}>"))
            ),
            (Msg::FollowedMove { inner, place, .. }, Lang::De) => format!(
                "[gefolgt] {}{}", inner.localize(lang), place.map_or_else(String::new, |p| format!("\n<#{p}>"))
            ),
            (Msg::ServerGames { games, .. }, Lang::En) if games.is_empty() => "No games are being played on this server right now. `/challenge` someone!".into(),
            (Msg::ServerGames { games, .. }, Lang::De) if games.is_empty() => "Auf diesem Server läuft gerade keine Partie. `/herausfordern` jemanden!".into(),
            (Msg::ServerGames { games, more }, Lang::En) => {
                let mut s = format!("Live games on this server ({}):", games.len() as i64 + more);
                for g in games {
                    s.push_str(&format!(
                        "\n#{} ☗ {} vs ☖ {} — ply {}, {} to move{}",
                        g.game_id, name(&g.sente), name(&g.gote), g.ply, name(&g.to_move),
                        g.place.map_or_else(String::new, |p| format!(" · <#{p}>"))
                    ));
                }
                if *more > 0 {
                    s.push_str(&format!("\n…and {more} more."));
                }
                s
            }
            (Msg::ServerGames { games, more }, Lang::De) => {
                let mut s = format!("Laufende Partien auf diesem Server ({}):", games.len() as i64 + more);
                for g in games {
                    s.push_str(&format!(
                        "\n#{} ☗ {} gegen ☖ {} — Halbzug {}, {} am Zug{}",
                        g.game_id, name(&g.sente), name(&g.gote), g.ply, name(&g.to_move),
                        g.place.map_or_else(String::new, |p| format!(" · <#{p}>"))
                    ));
                }
                if *more > 0 {
                    s.push_str(&format!("\n…und {more} weitere."));
                }
                s
            }
            (Msg::ServerSettings { changed, channel, threads, rated, days, language }, Lang::En) => format!(
                "{}Games start in {}; {}; rated games {}; default {} per move; language: {}.",
                if *changed { "Server settings saved. " } else { "Server settings: " },
                channel.map_or_else(|| "the channel where they are accepted".to_string(), |c| format!("<#{c}>")),
                if *threads { "each game gets its own thread" } else { "no threads (games stay in the channel)" },
                if *rated { "allowed" } else { "off" },
                n_of(*days, "day", "days"),
                match language.as_deref() { Some("de") => "German", Some("en") => "English", _ => "each member's own" },
            ),
            (Msg::ServerSettings { changed, channel, threads, rated, days, language }, Lang::De) => format!(
                "{}Partien beginnen in {}; {}; gewertete Partien {}; Standard {} pro Zug; Sprache: {}.",
                if *changed { "Servereinstellungen gespeichert. " } else { "Servereinstellungen: " },
                channel.map_or_else(|| "dem Kanal, in dem sie angenommen werden".to_string(), |c| format!("<#{c}>")),
                if *threads { "jede Partie bekommt einen eigenen Thread" } else { "keine Threads (Partien bleiben im Kanal)" },
                if *rated { "erlaubt" } else { "aus" },
                n_of(*days, "Tag", "Tage"),
                match language.as_deref() { Some("de") => "Deutsch", Some("en") => "Englisch", _ => "die eigene jedes Mitglieds" },
            ),
            (Msg::PremoveLines { game_id, lines }, Lang::En) if lines.is_empty() => format!(
                "Game #{game_id}: you have no premove lines. Add one while your opponent is to move, e.g. `/premove line: 8c8d 2f2e` — if they play 8c8d, 2f2e is played for you at once."
            ),
            (Msg::PremoveLines { game_id, lines }, Lang::De) if lines.is_empty() => format!(
                "Partie #{game_id}: du hast keine Vorauszüge. Gib einen ein, während dein Gegner am Zug ist, z. B. `/vorauszug zeile: 8c8d 2f2e` — spielt er 8c8d, wird 2f2e sofort für dich gespielt."
            ),
            (Msg::PremoveLines { game_id, lines }, Lang::En) => format!(
                "Game #{game_id}, your premove lines (only you see them):\n{}",
                lines.iter().map(|l| premove_line(l, lang)).collect::<Vec<_>>().join("\n")
            ),
            (Msg::PremoveLines { game_id, lines }, Lang::De) => format!(
                "Partie #{game_id}, deine Vorauszüge (nur du siehst sie):\n{}",
                lines.iter().map(|l| premove_line(l, lang)).collect::<Vec<_>>().join("\n")
            ),
            (Msg::PremoveAdded { game_id, line }, Lang::En) => format!(
                "Game #{game_id}: premove line saved (only you see it).\n{}\nIt is dropped as soon as the game leaves it.",
                premove_line(line, lang)
            ),
            (Msg::PremoveAdded { game_id, line }, Lang::De) => format!(
                "Partie #{game_id}: Vorauszug gespeichert (nur du siehst ihn).\n{}\nEr verfällt, sobald die Partie anders verläuft.",
                premove_line(line, lang)
            ),
            (Msg::PremovesCleared { game_id, dropped }, Lang::En) => format!(
                "Game #{game_id}: {} deleted.", n_of(*dropped as i64, "premove line", "premove lines")
            ),
            (Msg::PremovesCleared { game_id, dropped }, Lang::De) => format!(
                "Partie #{game_id}: {} gelöscht.", n_of(*dropped as i64, "Vorauszug", "Vorauszüge")
            ),
            (Msg::PremovesDropped { game_id, place, played, count, your_move }, Lang::En) => format!(
                "Game #{game_id}: your opponent played {played}, which none of your premove lines expected. {} dropped; nothing was played for you.{}{}",
                if *count == 1 { "That line was".to_string() } else { format!("Those {count} lines were") },
                if *your_move { " It is your move." } else { "" },
                place.map_or_else(String::new, |p| format!("\n<#{p}>"))
            ),
            (Msg::PremovesDropped { game_id, place, played, count, your_move }, Lang::De) => format!(
                "Partie #{game_id}: dein Gegner hat {played} gespielt, das in keinem deiner Vorauszüge vorkam. {} verfallen; für dich wurde nichts gespielt.{}{}",
                if *count == 1 { "Dieser Vorauszug ist".to_string() } else { format!("Diese {count} Vorauszüge sind") },
                if *your_move { " Du bist am Zug." } else { "" },
                place.map_or_else(String::new, |p| format!("\n<#{p}>"))
            ),
            (Msg::PremovePlayed { by, .. }, Lang::En) => format!("{} had prepared the answer (conditional premove):", name(by)),
            (Msg::PremovePlayed { by, .. }, Lang::De) => format!("{} hatte die Antwort vorbereitet (bedingter Vorauszug):", name(by)),
            (Msg::AlreadyDone { game_id, ply }, Lang::En) => format!("Already done: that move is ply {ply} of game #{game_id}."),
            (Msg::AlreadyDone { game_id, ply }, Lang::De) => format!("Schon erledigt: dieser Zug ist Halbzug {ply} von Partie #{game_id}."),
            (Msg::ConfirmResign { game_id, abort: false }, Lang::En) => format!("Resign game #{game_id}? You will lose the game. Only you see this question."),
            (Msg::ConfirmResign { game_id, abort: false }, Lang::De) => format!("Partie #{game_id} aufgeben? Du verlierst die Partie. Nur du siehst diese Frage."),
            (Msg::ConfirmResign { game_id, abort: true }, Lang::En) => format!("Resign game #{game_id}? Before ply 10 this aborts the game: no result, no rating change. Only you see this question."),
            (Msg::ConfirmResign { game_id, abort: true }, Lang::De) => format!("Partie #{game_id} aufgeben? Vor dem 10. Halbzug wird die Partie damit abgebrochen: kein Ergebnis, keine Wertungsänderung. Nur du siehst diese Frage."),
            (Msg::ResignCancelled { game_id }, Lang::En) => format!("Not resigned: game #{game_id} goes on."),
            (Msg::ResignCancelled { game_id }, Lang::De) => format!("Nicht aufgegeben: Partie #{game_id} geht weiter."),
            (Msg::ComputerThinking { game_id }, Lang::En) => format!("The computer is thinking about game #{game_id}; its move will be posted here."),
            (Msg::ComputerThinking { game_id }, Lang::De) => format!("Der Computer denkt über Partie #{game_id} nach; sein Zug wird hier gepostet."),
            (Msg::GameOver { game_id, ending: e }, Lang::En) => format!("Game #{game_id} is over. {}", ending(e, lang)),
            (Msg::GameOver { game_id, ending: e }, Lang::De) => format!("Partie #{game_id} ist beendet. {}", ending(e, lang)),
            (Msg::Board { game_id, sente, gote, to_move, ply, deadline, ending: e }, _) => {
                let mut s = match lang {
                    Lang::En => format!("Game #{game_id}: ☗ {} vs ☖ {}, ply {ply}.", name(sente), name(gote)),
                    Lang::De => format!("Partie #{game_id}: ☗ {} gegen ☖ {}, Halbzug {ply}.", name(sente), name(gote)),
                };
                if let Some(t) = to_move {
                    s.push_str(&match lang {
                        Lang::En => format!(" {} to move{}.", name(t), deadline.map_or(String::new(), |d| format!(" by {}", at_rel(d)))),
                        Lang::De => format!(" {} ist am Zug{}.", name(t), deadline.map_or(String::new(), |d| format!(" bis {}", at_rel(d)))),
                    });
                }
                if let Some(e) = e {
                    s.push(' ');
                    s.push_str(&ending(e, lang));
                }
                s
            }
            (Msg::Games(lines), _) if lines.is_empty() => match lang {
                Lang::En => "You have no active games. Start one with /challenge.".into(),
                Lang::De => "Du hast keine laufenden Partien. Starte eine mit /herausfordern.".into(),
            },
            (Msg::Games(lines), _) => {
                let head = match lang {
                    Lang::En => "Your games:",
                    Lang::De => "Deine Partien:",
                };
                std::iter::once(head.to_string()).chain(lines.iter().map(|g| game_line(g, lang))).collect::<Vec<_>>().join("\n")
            }
            (Msg::TakebackOffered { game_id, by }, Lang::En) => format!("{} asks to take back their last move in game #{game_id}.", name(by)),
            (Msg::TakebackOffered { game_id, by }, Lang::De) => format!("{} bittet, den letzten eigenen Zug in Partie #{game_id} zurückzunehmen.", name(by)),
            (Msg::TakebackDone { game_id, plies }, Lang::En) => format!("Takeback accepted in game #{game_id}: {} undone.", n_of(*plies as i64, "ply", "plies")),
            (Msg::TakebackDone { game_id, plies }, Lang::De) => format!("Zurücknahme in Partie #{game_id} angenommen: {} zurückgenommen.", n_of(*plies as i64, "Halbzug", "Halbzüge")),
            (Msg::TakebackDeclined { game_id }, Lang::En) => format!("The takeback in game #{game_id} was declined."),
            (Msg::TakebackDeclined { game_id }, Lang::De) => format!("Die Zurücknahme in Partie #{game_id} wurde abgelehnt."),
            (Msg::CountOffered { game_id, by }, Lang::En) => format!("{} proposes to count points in game #{game_id} (24-point rule).", name(by)),
            (Msg::CountOffered { game_id, by }, Lang::De) => format!("{} schlägt vor, in Partie #{game_id} die Punkte zu zählen (24-Punkte-Regel).", name(by)),
            (Msg::Lesson { number, total, lesson }, Lang::En) => {
                let (title, task, _) = super::lesson_text(*lesson, lang);
                let answer = if *lesson == crate::app::Lesson::MiniGame { "" } else { " Answer with /learn move:…" };
                format!("Lesson {number}/{total} — {title}. {task}{answer}")
            }
            (Msg::Lesson { number, total, lesson }, Lang::De) => {
                let (title, task, _) = super::lesson_text(*lesson, lang);
                let answer = if *lesson == crate::app::Lesson::MiniGame { "" } else { " Antworte mit /lernen zug:…" };
                format!("Lektion {number}/{total} — {title}. {task}{answer}")
            }
            (Msg::LessonPassed { played }, Lang::En) => format!("Right: {played}!"),
            (Msg::LessonPassed { played }, Lang::De) => format!("Richtig: {played}!"),
            (Msg::LessonTryAgain { played, lesson }, Lang::En) => format!("{played} is legal, but not the answer. {} Try again.", super::lesson_text(*lesson, lang).2),
            (Msg::LessonTryAgain { played, lesson }, Lang::De) => format!("{played} ist erlaubt, aber nicht die Lösung. {} Versuch es noch einmal.", super::lesson_text(*lesson, lang).2),
            (Msg::Replay { game_id, ply, total, mv: Some((mover, mv)) }, Lang::En) => {
                let side = if *mover == crate::shogi::Color::Sente { "☗" } else { "☖" };
                format!("Game #{game_id}, ply {ply} of {total}: {side}{mv}")
            }
            (Msg::Replay { game_id, ply, total, mv: Some((mover, mv)) }, Lang::De) => {
                let side = if *mover == crate::shogi::Color::Sente { "☗" } else { "☖" };
                format!("Partie #{game_id}, Halbzug {ply} von {total}: {side}{mv}")
            }
            (Msg::Replay { game_id, total, mv: None, .. }, Lang::En) => format!("Game #{game_id}: the start position ({} {}).", n_of(*total as i64, "ply", "plies"), if *total == 1 { "follows" } else { "follow" }),
            (Msg::Replay { game_id, total, mv: None, .. }, Lang::De) => format!("Partie #{game_id}: die Anfangsstellung ({} {}).", n_of(*total as i64, "Halbzug", "Halbzüge"), if *total == 1 { "folgt" } else { "folgen" }),
            (Msg::Exported { game_id, format }, Lang::En) => format!("Game #{game_id} as {format} is attached."),
            (Msg::Exported { game_id, format }, Lang::De) => format!("Partie #{game_id} als {format} ist angehängt."),
            (Msg::Settings { notation, piece_style, theme, language, dms, danger, dots, names, orientation }, _) => {
                let v = |option, value: &str| setting_value(option, value, lang);
                let (notation, pieces, theme) = (v("notation", notation), v("style", piece_style), v("theme", theme));
                let (orientation, language) = (v("orientation", orientation), v("language", language.as_deref().unwrap_or("auto")));
                let danger = v("danger", danger);
                let (dms, dots, names) = (yes_no(*dms, lang), yes_no(*dots, lang), yes_no(*names, lang));
                match lang {
                    Lang::En => format!("Your settings: notation: {notation}; pieces: {pieces} (movement dots: {dots}, names: {names}); theme: {theme}; boards only you see: {orientation} (public boards: Sente at the bottom); danger help: {danger}; language: {language}; DMs on your turn: {dms}."),
                    Lang::De => format!("Deine Einstellungen: Notation: {notation}; Steine: {pieces} (Zugpunkte: {dots}, Namen: {names}); Farbschema: {theme}; Bretter nur für dich: {orientation} (öffentliche Bretter: Sente unten); Gefahrenhilfe: {danger}; Sprache: {language}; DMs wenn du am Zug bist: {dms}."),
                }
            }
            (Msg::Stats { who, rating, rated_games, points, taler, wins, losses, draws, computer, ladder, vacation }, Lang::En) => {
                let mut s = format!(
                    "{}: rating {rating:.0} ({}), {}, {taler} Taler; {}.",
                    name(who),
                    n_of(*rated_games, "rated game", "rated games"),
                    n_points(*points, lang),
                    record(*wins, *losses, *draws, lang)
                );
                for (level, w, l, d) in computer {
                    s.push_str(&format!(" Against komadai {level}: {}.", record(*w, *l, *d, lang)));
                }
                if *ladder > 0 {
                    s.push_str(&format!(" Handicap ladder: {}.", ladder_rank(*ladder, lang)));
                }
                s.push_str(&format!(" Vacation this year: {}.", days_used(vacation.0, vacation.1, lang)));
                s
            }
            (Msg::Stats { who, rating, rated_games, points, taler, wins, losses, draws, computer, ladder, vacation }, Lang::De) => {
                let mut s = format!(
                    "{}: Wertung {rating:.0} ({}), {}, {taler} Taler; {}.",
                    name(who),
                    n_of(*rated_games, "gewertete Partie", "gewertete Partien"),
                    n_points(*points, lang),
                    record(*wins, *losses, *draws, lang)
                );
                for (level, w, l, d) in computer {
                    s.push_str(&format!(" Gegen komadai {level}: {}.", record(*w, *l, *d, lang)));
                }
                if *ladder > 0 {
                    s.push_str(&format!(" Vorgabeleiter: {}.", ladder_rank(*ladder, lang)));
                }
                s.push_str(&format!(" Urlaub in diesem Jahr: {}.", days_used(vacation.0, vacation.1, lang)));
                s
            }
            (Msg::Ladder { step }, Lang::En) => match crate::app::LADDER.get(*step) {
                Some(Some(h)) => format!("Handicap ladder: you are {}. komadai (Strong) gives you {}; win to climb.", ladder_rank(*step, lang), handicap_label(*h, lang)),
                Some(None) => format!("Handicap ladder: you are {}. The even game against komadai (Strong): win it for 1 dan.", ladder_rank(*step, lang)),
                None => "Handicap ladder: you are 1 dan — you beat komadai (Strong) without a handicap. Another even game:".into(),
            },
            (Msg::Ladder { step }, Lang::De) => match crate::app::LADDER.get(*step) {
                Some(Some(h)) => format!("Vorgabeleiter: du bist {}. komadai (Stark) gibt dir {} vor; gewinne, um aufzusteigen.", ladder_rank(*step, lang), handicap_label(*h, lang)),
                Some(None) => format!("Vorgabeleiter: du bist {}. Die Partie ohne Vorgabe gegen komadai (Stark): gewinne sie für den 1. Dan.", ladder_rank(*step, lang)),
                None => "Vorgabeleiter: du bist 1. Dan — du hast komadai (Stark) ohne Vorgabe besiegt. Noch eine Partie ohne Vorgabe:".into(),
            },
            (Msg::Both(first, second), _) => format!("{}\n{}", first.localize(lang), second.localize(lang)),
            (Msg::GamePage { url }, Lang::En) => format!("Game page: <{url}>"),
            (Msg::GamePage { url }, Lang::De) => format!("Spielseite: <{url}>"),
            (Msg::Hint { text, reason }, Lang::En) => {
                format!("Hint: {text} — {}", crate::engine::reason_text(reason, false))
            }
            (Msg::Hint { text, reason }, Lang::De) => {
                format!("Tipp: {text} — {}", crate::engine::reason_text(reason, true))
            }
            (Msg::Analysis { game_id, points }, _) if points.is_empty() => match lang {
                Lang::En => format!("Analysis of game #{game_id}: no move changed the balance much. The graph is attached."),
                Lang::De => format!("Analyse von Partie #{game_id}: kein Zug hat das Gleichgewicht stark verändert. Die Grafik ist angehängt."),
            },
            (Msg::Analysis { game_id, points }, _) => {
                let head = match lang {
                    Lang::En => format!("Analysis of game #{game_id} (graph attached). Turning points:"),
                    Lang::De => format!("Analyse von Partie #{game_id} (Grafik angehängt). Wendepunkte:"),
                };
                std::iter::once(head)
                    .chain(points.iter().map(|(n, played, better, swing)| match (swing, lang) {
                        (Swing::Pawns(loss), Lang::En) => format!("move {n}: {played} lost about {:.1} pawns; better was {better}", f64::from(*loss) / 100.0),
                        (Swing::Pawns(loss), Lang::De) => format!("Zug {n}: {played} verlor etwa {:.1} Bauern; besser war {better}", f64::from(*loss) / 100.0),
                        (Swing::AllowedMate(k), Lang::En) => format!("move {n}: {played} allowed mate in {}; {better} held", n_of(i64::from(*k), "ply", "plies")),
                        (Swing::AllowedMate(k), Lang::De) => format!("Zug {n}: {played} ließ ein Matt in {} zu; {better} hielt stand", n_of(i64::from(*k), "Halbzug", "Halbzügen")),
                        (Swing::MissedMate(k), Lang::En) => format!("move {n}: {played} missed a mate in {}, starting with {better}", n_of(i64::from(*k), "ply", "plies")),
                        (Swing::MissedMate(k), Lang::De) => format!("Zug {n}: {played} verpasste ein Matt in {}, beginnend mit {better}", n_of(i64::from(*k), "Halbzug", "Halbzügen")),
                    }))
                    .collect::<Vec<_>>()
                    .join("\n")
            }
            (Msg::Leaderboard { rows, .. }, _) if rows.is_empty() => match lang {
                Lang::En => "No rated games yet.".into(),
                Lang::De => "Noch keine gewerteten Partien.".into(),
            },
            (Msg::Leaderboard { by, rows }, _) => {
                let head = match (by, lang) {
                    (Ranking::Elo, Lang::En) => "Leaderboard by rating:",
                    (Ranking::Elo, Lang::De) => "Rangliste nach Wertung:",
                    (Ranking::Points, Lang::En) => "Leaderboard by points:",
                    (Ranking::Points, Lang::De) => "Rangliste nach Punkten:",
                    (Ranking::Taler, Lang::En) => "Leaderboard by Taler:",
                    (Ranking::Taler, Lang::De) => "Rangliste nach Talern:",
                };
                let line = |(i, (w, rating, points, taler, games)): (usize, &(Who, f64, i64, i64, i64))| {
                    let games = match lang {
                        Lang::En => n_of(*games, "game", "games"),
                        Lang::De => n_of(*games, "Partie", "Partien"),
                    };
                    let first = match by {
                        Ranking::Elo => format!("{rating:.0}"),
                        Ranking::Points => n_points(*points, lang),
                        Ranking::Taler => format!("{taler} Taler"),
                    };
                    format!("{}. {} — {first} ({games})", i + 1, name(w))
                };
                std::iter::once(head.to_string())
                    .chain(rows.iter().enumerate().map(line))
                    .collect::<Vec<_>>()
                    .join("\n")
            }
            (Msg::Reminder { game_id, player, deadline, left }, Lang::En) => format!(
                "Reminder: {}, it is your move in game #{game_id}; {} left (deadline {}).",
                name(player),
                duration(*left, lang),
                at(*deadline)
            ),
            (Msg::Reminder { game_id, player, deadline, left }, Lang::De) => format!(
                "Erinnerung: {}, du bist in Partie #{game_id} am Zug; noch {} (Frist {}).",
                name(player),
                duration(*left, lang),
                at(*deadline)
            ),
            (Msg::SlashHelp, Lang::En) => "\
**komadai** — correspondence shogi on Discord. New to shogi? Start with **/learn**: 15 short lessons, from the pawn to your first minishogi game.
**/challenge** a member (days per move, rated or friendly, variant, handicap, colour, a stake of Taler, sennichite replayed at once); they accept with the button, and the game gets its own thread.
**/move** plays your move: pick it from the list while you type, or write it as 7g7f, P-7f, P-76, ７六歩, S*4e or 同歩.
**/board** shows your game, **/games** all your games and whose turn it is.
**/takeback** asks to take back, **/resign** gives up (it asks first), **/abort** ends a game in its first moves, **/declare** claims an entering-king win, **/count** proposes counting points.
**/play** a game against the computer at four strengths, or climb its handicap ladder.
**/hint** the engine's best move with a reason (never in rated games), **/danger** your hanging pieces and where a piece can go safely, **/analyze** an evaluation graph and the turning points, **/replay** steps through a game.
**/puzzle** a mate puzzle, today's puzzle, who solved it or your streak; answer with /move.
**/export** a game as KIF, CSA, SFEN or an animated GIF.
**/settings** notation, piece style, colours, board orientation, language and DMs on your turn.
**/vacation** pauses the deadlines of all your games while you are away (a yearly allowance of days); **/premove** prepares answers to your opponent's next moves; **/follow** a game or a member by DM.
**/league** server leagues: join with the button, standings and pairings; **/privacy** what komadai stores about you, and erasing it; **/server** this server's settings (Manage Server).
**/stats** rating, points, Taler and records; **/leaderboard** the best players here by rating, points or Taler (play money: a rated win gives 10 points, the winner takes the stakes).".into(),
            (Msg::SlashHelp, Lang::De) => "\
**komadai** — Shogi im Fernspiel auf Discord. Neu bei Shogi? Fang mit **/lernen** an: 15 kurze Lektionen, vom Bauern bis zu deiner ersten Minishogi-Partie.
**/herausfordern** fordert ein Mitglied heraus (Tage pro Zug, gewertet oder freundschaftlich, Variante, Vorgabe, Farbe, ein Einsatz in Talern, Sennichite sofort neu gespielt); es nimmt mit dem Knopf an, und die Partie bekommt einen eigenen Thread.
**/zug** spielt deinen Zug: wähle ihn beim Tippen aus der Liste oder schreib ihn als 7g7f, P-7f, P-76, ７六歩, S*4e oder 同歩.
**/brett** zeigt deine Partie, **/partien** alle deine Partien und wer am Zug ist.
**/zuruecknehmen** bittet um Zurücknahme, **/aufgeben** gibt auf (nach Rückfrage), **/abbrechen** beendet eine Partie in den ersten Zügen, **/erklaeren** beansprucht den Sieg durch Einzug des Königs, **/zaehlen** schlägt das Punktezählen vor.
**/spielen** eine Partie gegen den Computer in vier Stärken oder seine Vorgabeleiter hinauf.
**/tipp** der beste Zug der Engine mit Begründung (nie in gewerteten Partien), **/gefahr** deine ungedeckten Steine und wohin ein Stein sicher ziehen kann, **/analyse** eine Bewertungsgrafik und die Wendepunkte, **/nachspielen** geht eine Partie Zug für Zug durch.
**/problem** ein Mattproblem, das Tagesproblem, wer es gelöst hat oder deine Serie; antworte mit /zug.
**/exportieren** eine Partie als KIF, CSA, SFEN oder animiertes GIF.
**/einstellungen** Notation, Figurenstil, Farben, Ausrichtung des Bretts, Sprache und DMs, wenn du am Zug bist.
**/urlaub** hält die Fristen all deiner Partien an, solange du weg bist (ein Kontingent von Tagen im Jahr); **/vorauszug** bereitet Antworten auf die nächsten Züge deines Gegners vor; **/folgen** einer Partie oder einem Mitglied per DM.
**/liga** Ligen des Servers: Beitritt per Knopf, Tabelle und Paarungen; **/datenschutz** was komadai über dich speichert, und es löschen; **/server** die Einstellungen dieses Servers (Server verwalten).
**/statistik** Wertung, Punkte, Taler und Bilanzen; **/rangliste** die besten Spieler hier nach Wertung, Punkten oder Talern (Spielgeld: ein gewerteter Sieg bringt 10 Punkte, der Sieger bekommt die Einsätze).".into(),
            (Msg::Help, Lang::En) => "Commands: challenge @user [days=N rated=yes|no variant=standard|minishogi handicap=NAME rule=declaration|counting|try color=sente|gote|random stake=N sennichite=yes|no], accept [ID], decline ID, cancel ID, move TEXT [game=ID], board, games, resign, abort, takeback, declare, count, rematch ID, export [kif|csa|sfen|gif], settings [notation=… style=… theme=… language=… dms=… orientation=… danger=auto|always|off dots=yes|no names=yes|no], stats [@user], leaderboard [by=elo|points|taler], follow [game=ID|@user] [stop], games [server], privacy, vacation [on|off], premove [MOVES…|clear=N|all] [game=ID], league create NAME… [format=rr|double|swiss rounds=N variant=… days=N rated=… start=now|YYYY-MM-DD players=N], league join|leave|start|standings [ID], league pairings [ID] [round=N], league list, server [channel=ID|none threads=… rated=… days=N language=en|de|auto], play [level=beginner|easy|medium|strong variant=… handicap=… color=…], play ladder, hint, danger [SQUARE|B*] [game=ID], analyze [game=ID], replay [game=ID ply=N], learn [lesson=N] [MOVE], puzzle [daily|random] [plies=N], solve TEXT, daily, streak, press BUTTON-ID. Lines starting with ':' control the console: ':clock +3d', ':tick', ':guild N' (the server of the following lines), ':manager NAME…' (who has Manage Server).".into(),
            (Msg::Help, Lang::De) => "Befehle: challenge @user [days=N rated=yes|no variant=standard|minishogi handicap=NAME rule=declaration|counting|try color=sente|gote|random stake=N sennichite=yes|no], accept [ID], decline ID, cancel ID, move TEXT [game=ID], board, games, resign, abort, takeback, declare, count, rematch ID, export [kif|csa|sfen|gif], settings [notation=… style=… theme=… language=… dms=… orientation=… danger=auto|always|off dots=yes|no names=yes|no], stats [@user], leaderboard [by=elo|points|taler], follow [game=ID|@user] [stop], games [server], privacy, vacation [on|off], premove [MOVES…|clear=N|all] [game=ID], league create NAME… [format=rr|double|swiss rounds=N variant=… days=N rated=… start=now|YYYY-MM-DD players=N], league join|leave|start|standings [ID], league pairings [ID] [round=N], league list, server [channel=ID|none threads=… rated=… days=N language=en|de|auto], play [level=beginner|easy|medium|strong variant=… handicap=… color=…], play ladder, hint, danger [SQUARE|B*] [game=ID], analyze [game=ID], replay [game=ID ply=N], learn [lesson=N] [MOVE], puzzle [daily|random] [plies=N], solve TEXT, daily, streak, press KNOPF-ID. Zeilen mit ':' steuern die Konsole: ':clock +3d', ':tick', ':guild N' (der Server der folgenden Zeilen), ':manager NAME…' (wer „Server verwalten“ darf).".into(),
            (Msg::PuzzleStart { puzzle_id, plies, daily, attacker }, Lang::En) => format!(
                "{}Puzzle {puzzle_id}: mate in {}, {} to move. Every move must give check; answer with /move.",
                if *daily { "Daily puzzle. " } else { "" },
                n_of(i64::from(*plies), "ply", "plies"),
                if *attacker == crate::shogi::Color::Sente { "Sente (☗)" } else { "Gote (☖)" }
            ),
            (Msg::PuzzleStart { puzzle_id, plies, daily, attacker }, Lang::De) => format!(
                "{}Problem {puzzle_id}: Matt in {}, {} am Zug. Jeder Zug muss Schach bieten; antworte mit /zug.",
                if *daily { "Tagesproblem. " } else { "" },
                n_of(i64::from(*plies), "Halbzug", "Halbzügen"),
                if *attacker == crate::shogi::Color::Sente { "Sente (☗)" } else { "Gote (☖)" }
            ),
            (Msg::PuzzleProgress { played, defence, plies_left }, Lang::En) => format!("{played} is right. I answer {defence}. Mate in {} more {}.", plies_left, if *plies_left == 1 { "ply" } else { "plies" }),
            (Msg::PuzzleProgress { played, defence, plies_left }, Lang::De) => format!("{played} ist richtig. Ich antworte {defence}. Matt in {}.", if *plies_left == 1 { "1 weiteren Halbzug".to_string() } else { format!("{plies_left} weiteren Halbzügen") }),
            (Msg::PuzzleSolved { puzzle_id, attempts }, Lang::En) => match attempts {
                Some(n) => format!("Checkmate! Puzzle {puzzle_id} solved in {}.", n_of(*n, "attempt", "attempts")),
                None => format!("Checkmate! Puzzle {puzzle_id} solved."),
            },
            (Msg::PuzzleSolved { puzzle_id, attempts }, Lang::De) => match attempts {
                Some(n) => format!("Matt! Problem {puzzle_id} im {n}. Versuch gelöst."),
                None => format!("Matt! Problem {puzzle_id} gelöst."),
            },
            (Msg::PuzzleFailed { played, not_check, solution }, Lang::En) => format!(
                "{played} {}. The solution: {solution}.",
                if *not_check { "gives no check" } else { "does not force mate in time" }
            ),
            (Msg::PuzzleFailed { played, not_check, solution }, Lang::De) => format!(
                "{played} {}. Die Lösung: {solution}.",
                if *not_check { "bietet kein Schach" } else { "erzwingt das Matt nicht rechtzeitig" }
            ),
            (Msg::PuzzleDailyList { day, rows }, Lang::En) if rows.is_empty() => format!("Nobody has solved the puzzle of {} yet.", date_of_day(*day)),
            (Msg::PuzzleDailyList { day, rows }, Lang::De) if rows.is_empty() => format!("Das Problem vom {} hat noch niemand gelöst.", date_of_day(*day)),
            (Msg::PuzzleDailyList { day, rows }, Lang::En) => format!(
                "Solved the puzzle of {}: {}",
                date_of_day(*day),
                rows.iter().enumerate().map(|(i, (w, n))| format!("{}. {} ({})", i + 1, name(w), n_of(*n, "attempt", "attempts"))).collect::<Vec<_>>().join(", ")
            ),
            (Msg::PuzzleDailyList { day, rows }, Lang::De) => format!(
                "Das Problem vom {} gelöst haben: {}",
                date_of_day(*day),
                rows.iter().enumerate().map(|(i, (w, n))| format!("{}. {} ({})", i + 1, name(w), n_of(*n, "Versuch", "Versuche"))).collect::<Vec<_>>().join(", ")
            ),
            (Msg::PuzzleStreak { days }, Lang::En) => format!("Your streak: {} in a row.", n_of(*days, "day", "days")),
            (Msg::PuzzleStreak { days }, Lang::De) => format!("Deine Serie: {} in Folge.", n_of(*days, "Tag", "Tage")),
        }
    }
}

fn missing(m: &DeclarationMissing, lang: Lang) -> String {
    match (m, lang) {
        (DeclarationMissing::KingNotInCamp, Lang::En) => {
            "your king is not in the opponent's camp".into()
        }
        (DeclarationMissing::KingNotInCamp, Lang::De) => {
            "dein König steht nicht im gegnerischen Lager".into()
        }
        (DeclarationMissing::InCheck, Lang::En) => "your king is in check".into(),
        (DeclarationMissing::InCheck, Lang::De) => "dein König steht im Schach".into(),
        (DeclarationMissing::TooFewPiecesInCamp { have, need }, Lang::En) => {
            format!("only {have} of the {need} other pieces needed are in the camp")
        }
        (DeclarationMissing::TooFewPiecesInCamp { have, need }, Lang::De) => {
            format!("nur {have} der nötigen {need} weiteren Steine stehen im Lager")
        }
        (DeclarationMissing::TooFewPoints { have, need }, Lang::En) => {
            format!("{have} points, {need} needed")
        }
        (DeclarationMissing::TooFewPoints { have, need }, Lang::De) => {
            format!("{have} Punkte, {need} nötig")
        }
    }
}

impl Localize for Refusal {
    fn localize(&self, lang: Lang) -> String {
        match (self, lang) {
            (
                r @ (Refusal::BadLeagueName(_)
                | Refusal::BadSwissRounds(_)
                | Refusal::RoundsOnlySwiss
                | Refusal::BadLeagueSize { .. }
                | Refusal::BadLeagueStart(_)
                | Refusal::LeagueStartOutOfRange { .. }
                | Refusal::TooManyLeagues(_)
                | Refusal::NoSuchLeague
                | Refusal::LeagueClosed
                | Refusal::AlreadyInLeague
                | Refusal::LeagueFull(_)
                | Refusal::NotInLeague
                | Refusal::LeagueTooFew { .. }
                | Refusal::LeagueNotStarted
                | Refusal::NoSuchRound { .. }
                | Refusal::NoAbortInLeague),
                _,
            ) => super::league::refusal(r, lang),
            (Refusal::NoSuchGame, Lang::En) => "There is no such game.".into(),
            (Refusal::NoSuchGame, Lang::De) => "Diese Partie gibt es nicht.".into(),
            (Refusal::NoSuchChallenge, Lang::En) => "There is no such open challenge (it may have been answered or expired).".into(),
            (Refusal::NoSuchChallenge, Lang::De) => "Diese offene Herausforderung gibt es nicht (vielleicht schon beantwortet oder abgelaufen).".into(),
            (Refusal::NoActiveGame, Lang::En) => "You have no active game. Start one with /challenge.".into(),
            (Refusal::NoActiveGame, Lang::De) => "Du hast keine laufende Partie. Starte eine mit /herausfordern.".into(),
            (Refusal::WhichGame(lines), _) => {
                let head = match lang {
                    Lang::En => "You have several games; say which one (game option or its thread):",
                    Lang::De => "Du hast mehrere Partien; sag welche (Option game oder ihr Thread):",
                };
                std::iter::once(head.to_string()).chain(lines.iter().map(|g| game_line(g, lang))).collect::<Vec<_>>().join("\n")
            }
            (Refusal::ThreadIsGame { game_id, sente, gote }, Lang::En) => format!(
                "This thread is game #{game_id} between {} and {}: commands here act on that game only, and only its players can use them.",
                name(sente), name(gote)
            ),
            (Refusal::ThreadIsGame { game_id, sente, gote }, Lang::De) => format!(
                "Dieser Thread ist Partie #{game_id} zwischen {} und {}: Befehle hier gelten nur dieser Partie, und nur ihre Spieler können sie geben.",
                name(sente), name(gote)
            ),
            (Refusal::RateLimited { seconds }, Lang::En) => format!("Too many requests of this kind; try again in {seconds} s."),
            (Refusal::RateLimited { seconds }, Lang::De) => format!("Zu viele Anfragen dieser Art; versuch es in {seconds} s wieder."),
            (Refusal::TooManyChallenges { max }, Lang::En) => format!("You already have {max} open challenges; withdraw one or wait for an answer."),
            (Refusal::TooManyChallenges { max }, Lang::De) => format!("Du hast schon {max} offene Herausforderungen; zieh eine zurück oder warte auf eine Antwort."),
            (Refusal::AlreadyChallenged, Lang::En) => "You already have an open challenge to this member (or rematch offer for this game); wait for the answer.".into(),
            (Refusal::AlreadyChallenged, Lang::De) => "Du hast schon eine offene Herausforderung an dieses Mitglied (oder ein Revanche-Angebot für diese Partie); warte auf die Antwort.".into(),
            (Refusal::TooManyGames { max, you: true }, Lang::En) => format!("You already play {max} games; finish one first."),
            (Refusal::TooManyGames { max, you: true }, Lang::De) => format!("Du spielst schon {max} Partien; beende zuerst eine."),
            (Refusal::TooManyGames { max, you: false }, Lang::En) => format!("Your opponent already plays {max} games; the challenge stays open until they finish one."),
            (Refusal::TooManyGames { max, you: false }, Lang::De) => format!("Dein Gegner spielt schon {max} Partien; die Herausforderung bleibt offen, bis eine beendet ist."),
            (Refusal::TooManyComputerGames { max }, Lang::En) => format!("You already play {max} games against the computer; finish or resign one first."),
            (Refusal::TooManyComputerGames { max }, Lang::De) => format!("Du spielst schon {max} Partien gegen den Computer; beende oder gib zuerst eine auf."),
            (Refusal::NoHelpOnLadder, Lang::En) => "Ladder games are played without hints and takebacks, so that every rank is earned.".into(),
            (Refusal::NoHelpOnLadder, Lang::De) => "Leiterpartien werden ohne Tipps und Zurücknahmen gespielt, damit jeder Rang verdient ist.".into(),
            (Refusal::OfferPending, Lang::En) => "Your offer is still waiting for an answer.".into(),
            (Refusal::OfferPending, Lang::De) => "Dein Angebot wartet noch auf eine Antwort.".into(),
            (Refusal::FormatUnsupported, Lang::En) => "This game cannot be written in that format (KIF and CSA have no 5×5 board); export it as SFEN instead.".into(),
            (Refusal::FormatUnsupported, Lang::De) => "Diese Partie lässt sich in diesem Format nicht schreiben (KIF und CSA kennen kein 5×5-Brett); exportiere sie stattdessen als SFEN.".into(),
            (Refusal::ComputerTakesNoChallenge, Lang::En) => "The computer takes no challenges; start a new game against it with /play.".into(),
            (Refusal::ComputerTakesNoChallenge, Lang::De) => "Der Computer nimmt keine Herausforderungen an; starte mit /spielen eine neue Partie gegen ihn.".into(),
            (Refusal::OtherServer, Lang::En) => "That game or challenge belongs to another server; use it there.".into(),
            (Refusal::OtherServer, Lang::De) => "Diese Partie oder Herausforderung gehört zu einem anderen Server; nutze sie dort.".into(),
            (Refusal::StartIsOver(why), Lang::En) => format!("A game cannot start from this position: {}.", match why {
                StartProblem::Checkmate => "the side to move is already checkmated",
                StartProblem::NoLegalMove => "the side to move has no legal move",
                StartProblem::OpponentInCheck => "the side not to move is in check, so its king could be captured",
            }),
            (Refusal::StartIsOver(why), Lang::De) => format!("Aus dieser Stellung kann keine Partie beginnen: {}.", match why {
                StartProblem::Checkmate => "die Seite am Zug ist schon matt",
                StartProblem::NoLegalMove => "die Seite am Zug hat keinen legalen Zug",
                StartProblem::OpponentInCheck => "die Seite, die nicht am Zug ist, steht im Schach, ihr König könnte geschlagen werden",
            }),
            (Refusal::NotYourGame, Lang::En) => "You do not play in this game.".into(),
            (Refusal::NotYourGame, Lang::De) => "Du spielst in dieser Partie nicht mit.".into(),
            (Refusal::NotYourTurn { to_move }, Lang::En) => format!("It is not your turn: {} is to move.", name(to_move)),
            (Refusal::NotYourTurn { to_move }, Lang::De) => format!("Du bist nicht am Zug: {} ist am Zug.", name(to_move)),
            (Refusal::GameIsOver, Lang::En) => "This game is over.".into(),
            (Refusal::GameIsOver, Lang::De) => "Diese Partie ist beendet.".into(),
            (Refusal::Move(e), Lang::En) => format!("Move refused: {}.", e.localize(lang)),
            (Refusal::Move(e), Lang::De) => format!("Zug abgelehnt: {}.", e.localize(lang)),
            (Refusal::SelfChallenge, Lang::En) => "You cannot challenge yourself.".into(),
            (Refusal::SelfChallenge, Lang::De) => "Du kannst dich nicht selbst herausfordern.".into(),
            (Refusal::NotChallenged, Lang::En) => "This challenge is not addressed to you.".into(),
            (Refusal::NotChallenged, Lang::De) => "Diese Herausforderung gilt nicht dir.".into(),
            (Refusal::NotChallenger, Lang::En) => "Only the challenger can withdraw a challenge.".into(),
            (Refusal::NotChallenger, Lang::De) => "Nur der Herausforderer kann die Herausforderung zurückziehen.".into(),
            (Refusal::OwnChallenge, Lang::En) => "You cannot accept your own challenge.".into(),
            (Refusal::OwnChallenge, Lang::De) => "Du kannst deine eigene Herausforderung nicht annehmen.".into(),
            (Refusal::UnratedVariant, Lang::En) => "Handicap and minishogi games are never rated: choose rated: no.".into(),
            (Refusal::UnratedVariant, Lang::De) => "Vorgabe- und Minishogi-Partien werden nie gewertet: wähle rated: nein.".into(),
            (Refusal::NoDangerInRated, Lang::En) => "The danger help is only shown in friendly games and against the computer, never in rated games.".into(),
            (Refusal::NoDangerInRated, Lang::De) => "Die Gefahrenhilfe gibt es nur in Freundschaftspartien und gegen den Computer, nie in gewerteten Partien.".into(),
            (Refusal::NoSuchPiece(t), Lang::En) => format!("You have no piece at “{t}”. Name one by its square (7g) or one in hand (B*); the list shows those that can move."),
            (Refusal::NoSuchPiece(t), Lang::De) => format!("Du hast keinen Stein bei „{t}“. Nenne ihn mit seinem Feld (7g) oder aus der Hand (B*); die Liste zeigt die, die ziehen können."),
            (Refusal::NotYourButton, Lang::En) => "That button is someone else's.".into(),
            (Refusal::NotYourButton, Lang::De) => "Dieser Knopf gehört jemand anderem.".into(),
            (Refusal::EraseWithActiveGames(n), Lang::En) => format!("You still play {}: finish or resign {} first, then erase (your opponents need your moves until the end).", n_of(*n, "game", "games"), if *n == 1 { "it" } else { "them" }),
            (Refusal::EraseInLeague(id), Lang::En) => format!("You still play in league #{id}: withdraw with `/league leave` first, then erase (it would pair you again)."),
            (Refusal::EraseInLeague(id), Lang::De) => format!("Du spielst noch in der Liga #{id}: zieh dich erst mit `/liga verlassen` zurück, dann lösche (sie würde dich sonst wieder paaren)."),
            (Refusal::EraseWithActiveGames(n), Lang::De) => format!("Du spielst noch {}: beende sie oder gib sie auf, dann lösche (deine Gegner brauchen deine Züge bis zum Ende).", n_of(*n, "Partie", "Partien")),
            (Refusal::FollowYourself, Lang::En) => "You see your own moves anyway: follow someone else, or a game you do not play in.".into(),
            (Refusal::FollowYourself, Lang::De) => "Deine eigenen Züge siehst du ohnehin: folge jemand anderem oder einer Partie, in der du nicht spielst.".into(),
            (Refusal::AlreadyFollowing, Lang::En) => "You follow that already.".into(),
            (Refusal::AlreadyFollowing, Lang::De) => "Dem folgst du schon.".into(),
            (Refusal::TooManyFollows(n), Lang::En) => format!("You follow {n} already, the most allowed. End one first (`/follow stop: True`)."),
            (Refusal::TooManyFollows(n), Lang::De) => format!("Du folgst schon {n}, mehr geht nicht. Beende erst eines (`/folgen stopp: True`)."),
            (Refusal::OnlyOnAServer, Lang::En) => "Server settings, server games and leagues exist only on a server, not in direct messages.".into(),
            (Refusal::OnlyOnAServer, Lang::De) => "Servereinstellungen, Serverpartien und Ligen gibt es nur auf einem Server, nicht in Direktnachrichten.".into(),
            (Refusal::NeedsManageServer, Lang::En) => "Only members with the Manage Server permission can change the server settings or create and start leagues; `/server` without options shows the settings.".into(),
            (Refusal::NeedsManageServer, Lang::De) => "Nur Mitglieder mit der Berechtigung „Server verwalten“ können die Servereinstellungen ändern und Ligen eröffnen oder starten; `/server` ohne Optionen zeigt die Einstellungen.".into(),
            (Refusal::RatedOffHere, Lang::En) => "This server allows no rated games: challenge with rated: no.".into(),
            (Refusal::RatedOffHere, Lang::De) => "Auf diesem Server gibt es keine gewerteten Partien: fordere mit gewertet: nein heraus.".into(),
            (Refusal::NoPremoveAgainstComputer, Lang::En) => "Premoves are for games between members; the computer answers at once anyway.".into(),
            (Refusal::NoPremoveAgainstComputer, Lang::De) => "Vorauszüge gibt es in Partien zwischen Mitgliedern; der Computer antwortet ohnehin sofort.".into(),
            (Refusal::PremoveOnYourTurn, Lang::En) => "It is your move: play it first. A premove line starts with your opponent's next move.".into(),
            (Refusal::PremoveOnYourTurn, Lang::De) => "Du bist am Zug: spiel ihn zuerst. Ein Vorauszug beginnt mit dem nächsten Zug deines Gegners.".into(),
            (Refusal::NoSuchPremoveLine(n), Lang::En) => format!("You have no premove line {n} in this game; `/premove` lists yours."),
            (Refusal::NoSuchPremoveLine(n), Lang::De) => format!("Du hast in dieser Partie keinen Vorauszug {n}; `/vorauszug` zeigt deine."),
            (Refusal::TooManyPremoveLines(n), Lang::En) => format!("You already keep {n} premove lines in this game, the most allowed. Delete one first."),
            (Refusal::TooManyPremoveLines(n), Lang::De) => format!("Du hast in dieser Partie schon {n} Vorauszüge, mehr geht nicht. Lösche erst einen."),
            (Refusal::PremoveConflict(n), Lang::En) => format!("Your line {n} answers the same move differently. Delete it first (`/premove clear: {n}`)."),
            (Refusal::PremoveConflict(n), Lang::De) => format!("Dein Vorauszug {n} antwortet auf denselben Zug anders. Lösche ihn zuerst (`/vorauszug loeschen: {n}`)."),
            (Refusal::PremoveNeedsPairs(n), Lang::En) => format!("A premove line is pairs: your opponent's move, then your answer (and so on). You gave {}.", n_of(*n as i64, "move", "moves")),
            (Refusal::PremoveNeedsPairs(n), Lang::De) => format!("Ein Vorauszug besteht aus Paaren: der Zug deines Gegners, dann deine Antwort (und so weiter). Du hast {} angegeben.", n_of(*n as i64, "Zug", "Züge")),
            (Refusal::PremoveTooLong(n), Lang::En) => format!("A premove line holds at most {n} moves."),
            (Refusal::PremoveTooLong(n), Lang::De) => format!("Ein Vorauszug hat höchstens {n} Züge."),
            (Refusal::PremoveMove { index, error }, Lang::En) => format!("Move {index} of the line: {}.", error.localize(lang)),
            (Refusal::PremoveMove { index, error }, Lang::De) => format!("Zug {index} der Zeile: {}.", error.localize(lang)),
            (Refusal::PremoveAfterEnd(n), Lang::En) => format!("The game is over after move {n} of the line; nothing can follow it."),
            (Refusal::PremoveAfterEnd(n), Lang::De) => format!("Nach Zug {n} der Zeile ist die Partie vorbei; danach kann nichts folgen."),
            (Refusal::AlreadyOnVacation, Lang::En) => "You are already on vacation. `/vacation` shows until when; `/vacation off` ends it.".into(),
            (Refusal::AlreadyOnVacation, Lang::De) => "Du bist schon im Urlaub. `/urlaub` zeigt, bis wann; `/urlaub aus` beendet ihn.".into(),
            (Refusal::NotOnVacation, Lang::En) => "You are not on vacation.".into(),
            (Refusal::NotOnVacation, Lang::De) => "Du bist nicht im Urlaub.".into(),
            (Refusal::NoVacationLeft { year }, Lang::En) => format!("Your vacation days for {year} are used up; the allowance starts anew on 1 January."),
            (Refusal::NoVacationLeft { year }, Lang::De) => format!("Deine Urlaubstage für {year} sind aufgebraucht; sie beginnen am 1. Januar neu."),
            (Refusal::StakeNeedsRated, Lang::En) => "Only rated games can have a stake: leave out stake, or play rated.".into(),
            (Refusal::StakeNeedsRated, Lang::De) => "Nur gewertete Partien haben einen Einsatz: lass stake weg oder spiele gewertet.".into(),
            (Refusal::NotEnoughTaler { who, have, need }, Lang::En) => format!("{} has {have} Taler, not enough for a stake of {need}.", name(who)),
            (Refusal::NotEnoughTaler { who, have, need }, Lang::De) => format!("{} hat {have} Taler, zu wenig für einen Einsatz von {need}.", name(who)),
            (Refusal::HandicapInMinishogi, Lang::En) => "Handicaps exist only for 9×9 shogi.".into(),
            (Refusal::HandicapInMinishogi, Lang::De) => "Vorgaben gibt es nur im 9×9-Shogi.".into(),
            (Refusal::BadDays, Lang::En) => "Days per move must be 1, 2, 3, 5, 7 or 14.".into(),
            (Refusal::BadDays, Lang::De) => "Tage pro Zug müssen 1, 2, 3, 5, 7 oder 14 sein.".into(),
            (Refusal::TooLateToAbort, Lang::En) => "A game can only be aborted before ply 10; you can resign instead.".into(),
            (Refusal::TooLateToAbort, Lang::De) => "Eine Partie kann nur vor dem 10. Halbzug abgebrochen werden; du kannst aufgeben.".into(),
            (Refusal::RatedNoTakeback, Lang::En) => "Takebacks are only allowed in friendly games.".into(),
            (Refusal::RatedNoTakeback, Lang::De) => "Zurücknahmen gibt es nur in Freundschaftspartien.".into(),
            (Refusal::NothingToTakeBack, Lang::En) => "There is no move of yours to take back.".into(),
            (Refusal::NothingToTakeBack, Lang::De) => "Es gibt keinen eigenen Zug zum Zurücknehmen.".into(),
            (Refusal::NothingToConfirm, Lang::En) => "There is no request from your opponent to answer.".into(),
            (Refusal::NothingToConfirm, Lang::De) => "Es gibt keine Anfrage deines Gegners zu beantworten.".into(),
            (Refusal::CannotDeclare(m), _) => {
                let list = m.iter().map(|x| missing(x, lang)).collect::<Vec<_>>().join("; ");
                match lang {
                    Lang::En => format!("You cannot declare yet: {list}."),
                    Lang::De => format!("Du kannst noch nicht erklären: {list}."),
                }
            }
            (Refusal::WrongRule, Lang::En) => "This game uses another entering-king rule.".into(),
            (Refusal::WrongRule, Lang::De) => "Diese Partie verwendet eine andere Regel für den eingezogenen König.".into(),
            (Refusal::KingsNotInCamp, Lang::En) => "Counting needs both kings in the opponent's camp.".into(),
            (Refusal::KingsNotInCamp, Lang::De) => "Zum Zählen müssen beide Könige im gegnerischen Lager stehen.".into(),
            (Refusal::GameNotFinished, Lang::En) => "The game is still running.".into(),
            (Refusal::GameNotFinished, Lang::De) => "Die Partie läuft noch.".into(),
            (Refusal::Conflict, Lang::En) => "The game changed at the same moment; please try again.".into(),
            (Refusal::Conflict, Lang::De) => "Die Partie hat sich gleichzeitig geändert; bitte versuch es noch einmal.".into(),
            (Refusal::BadArgument(a), Lang::En) => format!("I do not understand “{a}”."),
            (Refusal::BadArgument(a), Lang::De) => format!("Das verstehe ich nicht: „{a}“."),
            (Refusal::NotOneOf { key, value, choices }, Lang::En) => format!("I do not understand “{key}={value}”: {key} is one of {choices}."),
            (Refusal::OutOfRange { key, value, min, max }, Lang::En) => format!("I do not understand “{key}={value}”: {key} is a whole number from {min} to {max}."),
            (Refusal::OutOfRange { key, value, min, max }, Lang::De) => format!("Das verstehe ich nicht: „{key}={value}“. {key} ist eine ganze Zahl von {min} bis {max}."),
            (Refusal::NotOneOf { key, value, choices }, Lang::De) => format!("Das verstehe ich nicht: „{key}={value}“. Für {key} gibt es: {choices}."),
            (Refusal::TooLong, Lang::En) => format!("That input is too long (at most {} characters).", crate::app::MAX_ARG_CHARS),
            (Refusal::TooLong, Lang::De) => format!("Diese Eingabe ist zu lang (höchstens {} Zeichen).", crate::app::MAX_ARG_CHARS),
            (Refusal::EngineBusy, Lang::En) => "The computer is busy right now; try again in a moment (your move is saved).".into(),
            (Refusal::EngineBusy, Lang::De) => "Der Computer ist gerade beschäftigt; versuch es gleich noch einmal (dein Zug ist gespeichert).".into(),
            (Refusal::NoHintInRated, Lang::En) => "Hints are only given in friendly games and against the computer, never in rated games.".into(),
            (Refusal::NoHintInRated, Lang::De) => "Tipps gibt es nur in Freundschaftspartien und gegen den Computer, nie in gewerteten Partien.".into(),
            (Refusal::UnknownCommand(c), Lang::En) => format!("Unknown command “{c}”. /help (help on the console) lists every command."),
            (Refusal::UnknownCommand(c), Lang::De) => format!("Unbekannter Befehl „{c}“. /hilfe (in der Konsole help) zeigt alle Befehle."),
            (Refusal::UnknownButton(c), Lang::En) => format!("I do not know the button “{c}” (it may be from an older version of the bot). /games shows your games, /help every command."),
            (Refusal::UnknownButton(c), Lang::De) => format!("Den Knopf „{c}“ kenne ich nicht (vielleicht ist er von einer älteren Version des Bots). /partien zeigt deine Partien, /hilfe alle Befehle."),
            (Refusal::NoSuchLesson(n), Lang::En) => format!("There are lessons 1 to {n}."),
            (Refusal::NoSuchLesson(n), Lang::De) => format!("Es gibt die Lektionen 1 bis {n}."),
            (Refusal::LessonIsAGame, Lang::En) => "The last lesson is a game: start it with /learn and play with /move.".into(),
            (Refusal::LessonIsAGame, Lang::De) => "Die letzte Lektion ist eine Partie: starte sie mit /lernen und spiele mit /zug.".into(),
            (Refusal::GifTooLong(max), Lang::En) => format!("This game is too long for an animation (at most {max} moves); export it as KIF instead."),
            (Refusal::GifTooLong(max), Lang::De) => format!("Diese Partie ist zu lang für eine Animation (höchstens {max} Züge); exportiere sie stattdessen als KIF."),
            (Refusal::InPuzzle(inner), Lang::En) => format!("In your puzzle: {} (For a move in one of your games, name the game or play in its thread.)", inner.localize(lang)),
            (Refusal::InPuzzle(inner), Lang::De) => format!("In deinem Problem: {} (Für einen Zug in einer deiner Partien nenne die Partie oder spiele in ihrem Thread.)", inner.localize(lang)),
            (Refusal::NoActivePuzzle, Lang::En) => "You have no puzzle in progress. Start one with /puzzle.".into(),
            (Refusal::NoActivePuzzle, Lang::De) => "Du löst gerade kein Problem. Starte eines mit /problem.".into(),
            (Refusal::NoSuchPuzzle, Lang::En) => "There is no such puzzle (puzzles mate in 1, 3 or 5 plies).".into(),
            (Refusal::NoSuchPuzzle, Lang::De) => "Dieses Problem gibt es nicht (Probleme sind Matt in 1, 3 oder 5 Halbzügen).".into(),
            (Refusal::DailyAlreadySolved, Lang::En) => "You have already solved today's puzzle. Come back tomorrow!".into(),
            (Refusal::DailyAlreadySolved, Lang::De) => "Du hast das heutige Problem schon gelöst. Bis morgen!".into(),
        }
    }
}

/// The rank of a handicap-ladder step: 10 kyu at the start (six pieces),
/// then 8, 6, 5, 4, 3, 2 and 1 kyu; the even game won is 1 dan.
#[must_use]
pub fn ladder_rank(step: usize, lang: Lang) -> String {
    const KYU: [u8; 8] = [10, 8, 6, 5, 4, 3, 2, 1];
    match (KYU.get(step), lang) {
        (Some(k), Lang::En) => format!("{k} kyu"),
        (Some(k), Lang::De) => format!("{k}. Kyu"),
        (None, Lang::En) => "1 dan".into(),
        (None, Lang::De) => "1. Dan".into(),
    }
}

/// The name of a handicap in messages and command choices.
#[must_use]
pub fn handicap_label(h: Handicap, lang: Lang) -> &'static str {
    match (h, lang) {
        (Handicap::Lance, Lang::En) => "Lance",
        (Handicap::Lance, Lang::De) => "Lanze",
        (Handicap::Bishop, Lang::En) => "Bishop",
        (Handicap::Bishop, Lang::De) => "Läufer",
        (Handicap::Rook, Lang::En) => "Rook",
        (Handicap::Rook, Lang::De) => "Turm",
        (Handicap::RookLance, Lang::En) => "Rook and lance",
        (Handicap::RookLance, Lang::De) => "Turm und Lanze",
        (Handicap::TwoPieces, Lang::En) => "2 pieces",
        (Handicap::TwoPieces, Lang::De) => "2 Figuren",
        (Handicap::FourPieces, Lang::En) => "4 pieces",
        (Handicap::FourPieces, Lang::De) => "4 Figuren",
        (Handicap::SixPieces, Lang::En) => "6 pieces",
        (Handicap::SixPieces, Lang::De) => "6 Figuren",
        (Handicap::EightPieces, Lang::En) => "8 pieces",
        (Handicap::EightPieces, Lang::De) => "8 Figuren",
        (Handicap::TenPieces, Lang::En) => "10 pieces",
        (Handicap::TenPieces, Lang::De) => "10 Figuren",
    }
}

/// The label of a button.
#[must_use]
pub fn button_label(a: ButtonAction, lang: Lang) -> &'static str {
    match (a, lang) {
        (ButtonAction::Accept, Lang::En) => "Accept",
        (ButtonAction::Accept, Lang::De) => "Annehmen",
        (ButtonAction::Decline, Lang::En) => "Decline",
        (ButtonAction::Decline, Lang::De) => "Ablehnen",
        (ButtonAction::Cancel, Lang::En) => "Withdraw",
        (ButtonAction::Cancel, Lang::De) => "Zurückziehen",
        (ButtonAction::TakebackYes, Lang::En) => "Allow takeback",
        (ButtonAction::TakebackYes, Lang::De) => "Zurücknahme erlauben",
        (ButtonAction::TakebackNo, Lang::En) => "Refuse takeback",
        (ButtonAction::TakebackNo, Lang::De) => "Zurücknahme ablehnen",
        (ButtonAction::CountYes, Lang::En) => "Agree to count",
        (ButtonAction::CountYes, Lang::De) => "Zählen zustimmen",
        (ButtonAction::Declare, Lang::En) => "Declare win (27 points)",
        (ButtonAction::Declare, Lang::De) => "Sieg erklären (27 Punkte)",
        (ButtonAction::Rematch, Lang::En) => "Rematch (colours swapped)",
        (ButtonAction::Rematch, Lang::De) => "Revanche (Farben getauscht)",
        (ButtonAction::ResignYes, Lang::En) => "Resign",
        (ButtonAction::ResignYes, Lang::De) => "Aufgeben",
        (ButtonAction::ResignNo, Lang::En) => "Keep playing",
        (ButtonAction::ResignNo, Lang::De) => "Weiterspielen",
        (ButtonAction::ReplayFirst, _) => "⏮",
        (ButtonAction::ReplayBack, _) => "◀",
        (ButtonAction::ReplayNext, _) => "▶",
        (ButtonAction::ReplayLast, _) => "⏭",
        (ButtonAction::EraseYes, Lang::En) => "Erase my data",
        (ButtonAction::EraseYes, Lang::De) => "Meine Daten löschen",
        (ButtonAction::LeagueJoin, Lang::En) => "Join",
        (ButtonAction::LeagueJoin, Lang::De) => "Beitreten",
        (ButtonAction::LeagueLeave, Lang::En) => "Leave",
        (ButtonAction::LeagueLeave, Lang::De) => "Verlassen",
        (ButtonAction::LeagueWithdraw, Lang::En) => "Withdraw from the league",
        (ButtonAction::LeagueWithdraw, Lang::De) => "Aus der Liga zurückziehen",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_agrees_with_its_noun() {
        let cases: Vec<(Msg, [&str; 2])> = vec![
            (Msg::TakebackDone { game_id: 1, plies: 1 }, ["1 ply undone", "1 Halbzug zurückgenommen"]),
            (Msg::TakebackDone { game_id: 1, plies: 2 }, ["2 plies undone", "2 Halbzüge zurückgenommen"]),
            (Msg::PuzzleStreak { days: 1 }, ["1 day in a row", "1 Tag in Folge"]),
            (Msg::PuzzleStreak { days: 0 }, ["0 days in a row", "0 Tage in Folge"]),
            (
                Msg::PuzzleProgress { played: "G*5b".into(), defence: "Kx5b".into(), plies_left: 1 },
                ["Mate in 1 more ply.", "Matt in 1 weiteren Halbzug."],
            ),
            (
                Msg::PuzzleProgress { played: "G*5b".into(), defence: "Kx5b".into(), plies_left: 3 },
                ["Mate in 3 more plies.", "Matt in 3 weiteren Halbzügen."],
            ),
            (Msg::PuzzleSolved { puzzle_id: "p".into(), attempts: Some(1) }, ["solved in 1 attempt.", "im 1. Versuch"]),
            (
                Msg::Stats {
                    who: Who { id: 1, name: "Ann".into() },
                    rating: 1500.0,
                    rated_games: 1,
                    points: 1,
                    taler: 1000,
                    wins: 1,
                    losses: 1,
                    draws: 1,
                    computer: vec![("Easy".into(), 0, 2, 0)],
                    ladder: 0,
                    vacation: (3 * 86_400 + 43_200, 14 * 86_400),
                },
                [
                    "(1 rated game), 1 point, 1000 Taler; 1 win, 1 loss, 1 draw. Against komadai Easy: 0 wins, 2 losses, 0 draws. Vacation this year: 3.5 of 14 days used.",
                    "(1 gewertete Partie), 1 Punkt, 1000 Taler; 1 Sieg, 1 Niederlage, 1 Remis. Gegen komadai Easy: 0 Siege, 2 Niederlagen, 0 Remis. Urlaub in diesem Jahr: 3,5 von 14 Tagen genommen.",
                ],
            ),
        ];
        for (msg, [en, de]) in cases {
            assert!(
                msg.localize(Lang::En).contains(en),
                "{}",
                msg.localize(Lang::En)
            );
            assert!(
                msg.localize(Lang::De).contains(de),
                "{}",
                msg.localize(Lang::De)
            );
        }
    }

    #[test]
    fn analysis_speaks_of_mates_as_mates() {
        let m = Msg::Analysis {
            game_id: 4,
            points: vec![
                (23, "K-7f".into(), "K-6h".into(), Swing::AllowedMate(3)),
                (30, "G-5b".into(), "R*5a".into(), Swing::MissedMate(1)),
                (12, "P-2d".into(), "S-3g".into(), Swing::Pawns(250)),
            ],
        };
        let en = m.localize(Lang::En);
        for part in [
            "move 23: K-7f allowed mate in 3 plies; K-6h held",
            "move 30: G-5b missed a mate in 1 ply, starting with R*5a",
            "move 12: P-2d lost about 2.5 pawns; better was S-3g",
        ] {
            assert!(en.contains(part), "{part}: {en}");
        }
        let de = m.localize(Lang::De);
        for part in [
            "ließ ein Matt in 3 Halbzügen zu; K-6h hielt stand",
            "verpasste ein Matt in 1 Halbzug",
        ] {
            assert!(de.contains(part), "{part}: {de}");
        }
    }

    #[test]
    fn move_commentary_in_both_languages() {
        let sq = |s| crate::shogi::Square::from_usi(s).unwrap();
        let ann = Who {
            id: 1,
            name: "Ann".into(),
        };
        let cases = [
            (
                Comment::ThreatensMate,
                "Ann threatens mate.",
                "Ann droht Matt.",
            ),
            (
                Comment::Material(1),
                "Material: ☗ ahead by 1 pawn.",
                "Material: ☗ liegt 1 Bauer vorn.",
            ),
            (
                Comment::Material(-4),
                "Material: ☖ ahead by 4 pawns.",
                "Material: ☖ liegt 4 Bauern vorn.",
            ),
            (
                Comment::Material(0),
                "Material is even.",
                "Das Material ist ausgeglichen.",
            ),
            (
                Comment::AttacksLoose(PieceKind::Rook, sq("2b")),
                "It attacks the undefended rook on 2b.",
                "Angegriffen und ungedeckt: Turm auf 2b.",
            ),
            (
                Comment::LeavesHanging(PieceKind::Silver, sq("6f")),
                "It leaves the silver on 6f attacked and undefended.",
                "Danach steht Silber auf 6f angegriffen und ungedeckt.",
            ),
            (
                Comment::KingEntersCamp,
                "Ann's king enters the opponent's camp (towards an entering-king win).",
                "Der König von Ann zieht ins gegnerische Lager ein (Richtung Einzugssieg).",
            ),
        ];
        for (c, en, de) in cases {
            assert_eq!(comment_text(&c, &ann, Lang::En), en);
            assert_eq!(comment_text(&c, &ann, Lang::De), de);
        }
    }

    #[test]
    fn settings_values_are_named_in_the_readers_language() {
        let m = Msg::Settings {
            notation: "japanese".into(),
            piece_style: "kanji2".into(),
            theme: "dark".into(),
            language: None,
            dms: true,
            orientation: "sente".into(),
            danger: "always".into(),
            dots: true,
            names: false,
        };
        let expected = [
            (
                Lang::De,
                [
                    "Japanisch (７六歩)",
                    "Zwei Kanji",
                    "Dunkel",
                    "Sente unten",
                    "Gefahrenhilfe: In jeder ungewerteten Partie",
                    "(Zugpunkte: ja, Namen: nein)",
                    "Meine Discord-Sprache",
                    ": ja.",
                ],
            ),
            (
                Lang::En,
                [
                    "Japanese (７六歩)",
                    "Two kanji",
                    "Dark",
                    "Sente at the bottom",
                    "danger help: In every unrated game",
                    "(movement dots: yes, names: no)",
                    "My Discord language",
                    ": yes.",
                ],
            ),
        ];
        for (lang, parts) in expected {
            let text = m.localize(lang);
            for part in parts {
                assert!(text.contains(part), "{part}: {text}");
            }
        }
        // Every option the Discord command offers has both names.
        for option in [
            "notation",
            "style",
            "theme",
            "orientation",
            "language",
            "danger",
        ] {
            assert!(!setting_choices(option).is_empty(), "{option}");
        }
    }

    #[test]
    fn timestamps_are_discord_markup_and_plain_utc_outside_discord() {
        let t = 1_798_545_600;
        assert_eq!(at(t), "<t:1798545600:f>");
        assert_eq!(at_rel(t), "<t:1798545600:f> (<t:1798545600:R>)");
        assert_eq!(
            plain_times(&format!("Bob to move by {}.", at_rel(t))),
            "Bob to move by 2026-12-29 12:00 UTC."
        );
        assert_eq!(
            plain_times(&format!("(deadline {})", at(t))),
            "(deadline 2026-12-29 12:00 UTC)"
        );
        assert_eq!(
            plain_times("<t:0:R> and <t:0>"),
            "1970-01-01 00:00 UTC and 1970-01-01 00:00 UTC"
        );
        // Not timestamps: kept as written.
        for s in [
            "<t:>",
            "<t:12x:f>",
            "<t:1:q>",
            "<t:1:ff>",
            "a <t:1",
            "<<t:",
            "x < t:1>",
            "<t:-5:f>",
        ] {
            assert_eq!(plain_times(s), s);
        }
        assert_eq!(plain_times("<<t:0:f>"), "<1970-01-01 00:00 UTC");
        // Every deadline a message writes reads as UTC on the console.
        let m = Msg::Reminder {
            game_id: 3,
            player: Who {
                id: 1,
                name: "Ann".into(),
            },
            deadline: t,
            left: 90_000,
        };
        for lang in [Lang::En, Lang::De] {
            let text = m.localize(lang);
            assert!(text.contains("<t:1798545600:f>"), "{text}");
            assert!(
                plain_times(&text).contains("2026-12-29 12:00 UTC"),
                "{text}"
            );
        }
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_798_545_600), "2026-12-29 12:00 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn every_refusal_has_distinct_sentences() {
        let all = [
            Refusal::NoSuchGame,
            Refusal::NoActiveGame,
            Refusal::GameIsOver,
            Refusal::TooLateToAbort,
            Refusal::RatedNoTakeback,
            Refusal::CannotDeclare(vec![DeclarationMissing::InCheck]),
            Refusal::NotOneOf {
                key: "theme".into(),
                value: "pink".into(),
                choices: "light, dark".into(),
            },
            Refusal::OutOfRange {
                key: "stake".into(),
                value: -5,
                min: 0,
                max: 100_000,
            },
        ];
        for r in all {
            let en = r.localize(Lang::En);
            let de = r.localize(Lang::De);
            assert!(!en.is_empty() && !de.is_empty());
            assert_ne!(en, de, "{r:?}");
        }
    }
}
