//! The words the board picture itself shows: piece names, the mate banner
//! and the repetition caption, in every [`Lang`].
//!
//! Every function matches on the language without a catch-all arm, so a new
//! language does not compile until it has all of them; [`word_chars`] feeds
//! the glyph coverage test, so every character drawn is in the embedded font.

use crate::lang::Lang;
use crate::shogi::PieceKind;

/// The short name drawn under a piece's symbol. German names follow the
/// usual German shogi terms (Turm, Läufer, Springer, Lanze); promoted minor
/// pieces are written with a `+`, as in Western notation.
pub(crate) fn piece_name(kind: PieceKind, lang: Lang) -> &'static str {
    match lang {
        Lang::En => match kind {
            PieceKind::King => "King",
            PieceKind::Rook => "Rook",
            PieceKind::Bishop => "Bishop",
            PieceKind::Gold => "Gold",
            PieceKind::Silver => "Silver",
            PieceKind::Knight => "Knight",
            PieceKind::Lance => "Lance",
            PieceKind::Pawn => "Pawn",
            PieceKind::Dragon => "Dragon",
            PieceKind::Horse => "Horse",
            PieceKind::ProSilver => "+Silver",
            PieceKind::ProKnight => "+Knight",
            PieceKind::ProLance => "+Lance",
            PieceKind::ProPawn => "Tokin",
        },
        Lang::De => match kind {
            PieceKind::King => "König",
            PieceKind::Rook => "Turm",
            PieceKind::Bishop => "Läufer",
            PieceKind::Gold => "Gold",
            PieceKind::Silver => "Silber",
            PieceKind::Knight => "Springer",
            PieceKind::Lance => "Lanze",
            PieceKind::Pawn => "Bauer",
            PieceKind::Dragon => "Drache",
            PieceKind::Horse => "Pferd",
            PieceKind::ProSilver => "+Silber",
            PieceKind::ProKnight => "+Springer",
            PieceKind::ProLance => "+Lanze",
            PieceKind::ProPawn => "Tokin",
        },
    }
}

/// The mate banner: 詰み and the word in `lang`.
pub(crate) fn mate_banner(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "詰み · Checkmate",
        Lang::De => "詰み · Matt",
    }
}

/// The caption for a position that has occurred `count` times: none below
/// three; at three a warning that the fourth occurrence is sennichite; from
/// four (the game is over) that it is sennichite.
pub(crate) fn repetition_caption(count: u8, lang: Lang) -> Option<String> {
    if count < 3 {
        return None;
    }
    Some(match (lang, count) {
        (Lang::En, 3) => "Same position 3 times: a 4th is sennichite".to_string(),
        (Lang::En, n) => format!("Same position {n} times: sennichite"),
        (Lang::De, 3) => "Stellung zum 3. Mal – beim 4. Mal Sennichite".to_string(),
        (Lang::De, n) => format!("Stellung zum {n}. Mal – Sennichite"),
    })
}

/// Every character the functions above can return.
pub(crate) fn word_chars() -> Vec<char> {
    let mut v = Vec::new();
    for lang in Lang::ALL {
        for kind in PieceKind::ALL {
            v.extend(piece_name(kind, lang).chars());
        }
        v.extend(mate_banner(lang).chars());
        for count in 0..=u8::MAX {
            if let Some(c) = repetition_caption(count, lang) {
                v.extend(c.chars());
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captions_start_at_the_third_occurrence() {
        for lang in Lang::ALL {
            assert_eq!(repetition_caption(0, lang), None);
            assert_eq!(repetition_caption(2, lang), None);
            let warn = repetition_caption(3, lang).unwrap();
            assert!(warn.contains('4'), "{warn}");
            assert!(repetition_caption(4, lang).unwrap().contains('4'));
        }
    }

    #[test]
    fn names_differ_between_kinds() {
        for lang in Lang::ALL {
            let mut names: Vec<&str> = PieceKind::ALL
                .iter()
                .map(|&k| piece_name(k, lang))
                .collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), PieceKind::ALL.len(), "{lang:?}");
        }
    }

    #[test]
    fn german_words_use_umlauts() {
        assert_eq!(piece_name(PieceKind::King, Lang::De), "König");
        assert_eq!(piece_name(PieceKind::Bishop, Lang::De), "Läufer");
        assert!(word_chars().contains(&'ö') && word_chars().contains(&'ä'));
    }
}
