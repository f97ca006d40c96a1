//! Every sentence a player reads, in English and German.
//!
//! Errors elsewhere carry data, not prose; this module turns them into
//! sentences in the player's language. Each message is an exhaustive `match`
//! over the error's variants and over [`Lang`], so a new variant or a new
//! language without its translation fails to compile.

mod app;
mod league;
mod learn;
mod page;

pub use app::{
    button_label, civil, handicap_label, ladder_rank, plain_times, setting_choices, utc,
};
pub use league::standings_table;
pub use learn::lesson_text;
pub use page::{notation_label, page_words, PageWords};

use crate::notation::{MoveInputError, ParseMoveError, RecordError, RecordFormat};
use crate::shogi::{Color, IllegalMove, PieceKind, Square};

pub use crate::lang::Lang;

/// Something that can be said to a player.
pub trait Localize {
    /// The sentence in `lang`.
    fn localize(&self, lang: Lang) -> String;
}

/// A piece as `/danger`'s autocomplete lists it: "bishop on 8h", "bishop
/// in hand".
#[must_use]
pub fn piece_at_label(kind: PieceKind, sq: Option<crate::shogi::Square>, lang: Lang) -> String {
    let name = piece_name(kind, lang);
    match (sq, lang) {
        (Some(sq), Lang::En) => format!("{name} on {sq}"),
        (Some(sq), Lang::De) => format!("{name} auf {sq}"),
        (None, Lang::En) => format!("{name} in hand"),
        (None, Lang::De) => format!("{name} in der Hand"),
    }
}

/// The name of a piece kind, as players of `lang` call it.
#[must_use]
pub fn piece_name(kind: PieceKind, lang: Lang) -> &'static str {
    match lang {
        Lang::En => match kind {
            PieceKind::Pawn => "pawn",
            PieceKind::Lance => "lance",
            PieceKind::Knight => "knight",
            PieceKind::Silver => "silver",
            PieceKind::Gold => "gold",
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::King => "king",
            PieceKind::ProPawn => "tokin",
            PieceKind::ProLance => "promoted lance",
            PieceKind::ProKnight => "promoted knight",
            PieceKind::ProSilver => "promoted silver",
            PieceKind::Horse => "horse",
            PieceKind::Dragon => "dragon",
        },
        Lang::De => match kind {
            PieceKind::Pawn => "Bauer (Fu)",
            PieceKind::Lance => "Lanze",
            PieceKind::Knight => "Springer",
            PieceKind::Silver => "Silber",
            PieceKind::Gold => "Gold",
            PieceKind::Bishop => "Läufer",
            PieceKind::Rook => "Turm",
            PieceKind::King => "König",
            PieceKind::ProPawn => "Tokin",
            PieceKind::ProLance => "beförderte Lanze",
            PieceKind::ProKnight => "beförderter Springer",
            PieceKind::ProSilver => "befördertes Silber",
            PieceKind::Horse => "Pferd (beförderter Läufer)",
            PieceKind::Dragon => "Drache (beförderter Turm)",
        },
    }
}

/// German: the piece with its indefinite article in the nominative
/// ("ein Springer", "eine Lanze", "ein Silber").
fn de_nominative(kind: PieceKind) -> String {
    let article = match kind {
        PieceKind::Lance | PieceKind::ProLance => "eine",
        _ => "ein",
    };
    format!("{article} {}", piece_name(kind, Lang::De))
}

/// The name of a side.
#[must_use]
pub fn color_name(color: Color, lang: Lang) -> &'static str {
    match (color, lang) {
        (Color::Sente, Lang::En | Lang::De) => "Sente",
        (Color::Gote, Lang::En | Lang::De) => "Gote",
    }
}

impl Localize for IllegalMove {
    fn localize(&self, lang: Lang) -> String {
        let p = |k: PieceKind| piece_name(k, lang);
        match (*self, lang) {
            (IllegalMove::OffBoard(sq), Lang::En) => format!("{sq} is not on the board"),
            (IllegalMove::OffBoard(sq), Lang::De) => format!("{sq} liegt nicht auf dem Brett"),
            (IllegalMove::NoPiece(sq), Lang::En) => format!("there is no piece on {sq}"),
            (IllegalMove::NoPiece(sq), Lang::De) => format!("auf {sq} steht keine Figur"),
            (IllegalMove::NotYourPiece(sq), Lang::En) => format!("the piece on {sq} is not yours"),
            (IllegalMove::NotYourPiece(sq), Lang::De) => {
                format!("die Figur auf {sq} gehört nicht dir")
            }
            (IllegalMove::OwnPieceOnTarget(sq), Lang::En) => {
                format!("your own piece stands on {sq}")
            }
            (IllegalMove::OwnPieceOnTarget(sq), Lang::De) => {
                format!("auf {sq} steht schon eine eigene Figur")
            }
            (IllegalMove::CannotMoveLikeThat { kind, from, to }, Lang::En) => {
                format!("a {} cannot move from {from} to {to}", p(kind))
            }
            (IllegalMove::CannotMoveLikeThat { kind, from, to }, Lang::De) => {
                format!("{} kann nicht von {from} nach {to} ziehen", de_nominative(kind))
            }
            (IllegalMove::PathBlocked { from, to, blocker }, Lang::En) => {
                format!("the way from {from} to {to} is blocked on {blocker}")
            }
            (IllegalMove::PathBlocked { from, to, blocker }, Lang::De) => {
                format!("der Weg von {from} nach {to} ist auf {blocker} versperrt")
            }
            (IllegalMove::PieceCannotPromote(kind), Lang::En) => {
                format!("a {} cannot promote", p(kind))
            }
            (IllegalMove::PieceCannotPromote(kind), Lang::De) => {
                format!("{} kann nicht befördert werden", de_nominative(kind))
            }
            (IllegalMove::NotInPromotionZone, Lang::En) => {
                "a piece promotes only on a move into, out of or inside the promotion zone (the far three ranks)".into()
            }
            (IllegalMove::NotInPromotionZone, Lang::De) => {
                "befördert wird nur bei einem Zug in, aus oder innerhalb der Beförderungszone (die drei gegnerischen Reihen)".into()
            }
            (IllegalMove::MustPromote { kind, to }, Lang::En) => format!(
                "a {} on {to} could never move again: it must promote",
                p(kind)
            ),
            (IllegalMove::MustPromote { kind, to }, Lang::De) => format!(
                "{} auf {to} könnte nie mehr ziehen: Beförderung ist Pflicht",
                de_nominative(kind)
            ),
            (IllegalMove::NotInHand(kind), Lang::En) => format!("you have no {} in hand", p(kind)),
            (IllegalMove::NotInHand(kind), Lang::De) => {
                format!("du hast keine Figur vom Typ {} in der Hand", p(kind))
            }
            (IllegalMove::NotDroppable(kind), Lang::En) => {
                format!("a {} cannot be dropped", p(kind))
            }
            (IllegalMove::NotDroppable(kind), Lang::De) => {
                format!("{} kann nicht eingesetzt werden", de_nominative(kind))
            }
            (IllegalMove::DropOnOccupied(sq), Lang::En) => {
                format!("{sq} is occupied: drops go on empty squares only")
            }
            (IllegalMove::DropOnOccupied(sq), Lang::De) => {
                format!("{sq} ist besetzt: eingesetzt wird nur auf leere Felder")
            }
            (IllegalMove::Nifu { file, pawn }, Lang::En) => format!(
                "two pawns on a file (nifu): you already have a pawn on file {file} ({pawn})"
            ),
            (IllegalMove::Nifu { file, pawn }, Lang::De) => format!(
                "Zwei Bauern auf einer Linie (Nifu): auf Linie {file} steht schon dein Bauer ({pawn})"
            ),
            (IllegalMove::DeadDrop { kind, to }, Lang::En) => format!(
                "dead piece: a {} dropped on {to} could never move",
                p(kind)
            ),
            (IllegalMove::DeadDrop { kind, to }, Lang::De) => format!(
                "tote Figur: {} auf {to} könnte nie ziehen",
                de_nominative(kind)
            ),
            (IllegalMove::PawnDropMate, Lang::En) => {
                "a pawn drop may not give checkmate (uchifuzume)".into()
            }
            (IllegalMove::PawnDropMate, Lang::De) => {
                "Matt durch Bauerneinsatz ist verboten (Uchifuzume)".into()
            }
            (IllegalMove::KingIntoCheck { to, attacker }, Lang::En) => {
                format!("your king would be in check on {to} (from {attacker})")
            }
            (IllegalMove::KingIntoCheck { to, attacker }, Lang::De) => {
                format!("dein König stünde auf {to} im Schach (von {attacker})")
            }
            (IllegalMove::LeavesKingInCheck { attacker, was_in_check: true }, Lang::En) => {
                format!("this leaves your king in check (from {attacker})")
            }
            (IllegalMove::LeavesKingInCheck { attacker, was_in_check: true }, Lang::De) => {
                format!("dein König bleibt im Schach (von {attacker})")
            }
            (IllegalMove::LeavesKingInCheck { attacker, was_in_check: false }, Lang::En) => {
                format!("this exposes your king to check (from {attacker})")
            }
            (IllegalMove::LeavesKingInCheck { attacker, was_in_check: false }, Lang::De) => {
                format!("dadurch stünde dein König im Schach (von {attacker})")
            }
        }
    }
}

impl Localize for ParseMoveError {
    fn localize(&self, lang: Lang) -> String {
        let examples = "7g7f, P-7f, P-76, ７六歩, S*4e, 同歩";
        match (self, lang) {
            (ParseMoveError::Empty, Lang::En) => format!("please type a move, e.g. {examples}"),
            (ParseMoveError::Empty, Lang::De) => {
                format!("bitte gib einen Zug ein, z. B. {examples}")
            }
            (ParseMoveError::TooLong { max, .. }, Lang::En) => {
                format!("that is too long for a move (at most {max} characters)")
            }
            (ParseMoveError::TooLong { max, .. }, Lang::De) => {
                format!("das ist zu lang für einen Zug (höchstens {max} Zeichen)")
            }
            (ParseMoveError::NotAMove, Lang::En) => {
                format!("that is not a move; write moves like {examples}")
            }
            (ParseMoveError::NotAMove, Lang::De) => {
                format!("das ist kein Zug; schreib Züge wie {examples}")
            }
            (ParseMoveError::UnexpectedChar { ch }, Lang::En) => {
                format!("I cannot read {ch:?} in a move; write moves like {examples}")
            }
            (ParseMoveError::UnexpectedChar { ch }, Lang::De) => {
                format!("{ch:?} kann ich in einem Zug nicht lesen; schreib Züge wie {examples}")
            }
            (ParseMoveError::IncompleteSquare, Lang::En) => {
                "a square needs a file 1–9 and a rank (a–i, 1–9 or 一–九), e.g. 7f, 76 or ７六".into()
            }
            (ParseMoveError::IncompleteSquare, Lang::De) => {
                "ein Feld braucht eine Linie 1–9 und eine Reihe (a–i, 1–9 oder 一–九), z. B. 7f, 76 oder ７六".into()
            }
            (ParseMoveError::MissingDestination, Lang::En) => {
                format!("the move needs a destination square, e.g. {examples}")
            }
            (ParseMoveError::MissingDestination, Lang::De) => {
                format!("der Zug braucht ein Zielfeld, z. B. {examples}")
            }
            (ParseMoveError::TooManySquares, Lang::En) => {
                "a move has at most two squares: origin and destination".into()
            }
            (ParseMoveError::TooManySquares, Lang::De) => {
                "ein Zug hat höchstens zwei Felder: Start und Ziel".into()
            }
            (ParseMoveError::TooManyPieces, Lang::En) => "name only one piece".into(),
            (ParseMoveError::TooManyPieces, Lang::De) => "nenne nur eine Figur".into(),
            (ParseMoveError::ConflictingPromotion, Lang::En) => {
                "promote (+, 成) or not (=, 不成), not both".into()
            }
            (ParseMoveError::ConflictingPromotion, Lang::De) => {
                "befördern (+, 成) oder nicht (=, 不成), nicht beides".into()
            }
            (ParseMoveError::DropWithoutPiece, Lang::En) => {
                "say which piece to drop, e.g. P*5e or ５五歩打".into()
            }
            (ParseMoveError::DropWithoutPiece, Lang::De) => {
                "sag, welche Figur du einsetzt, z. B. P*5e oder ５五歩打".into()
            }
            (ParseMoveError::DropWithOrigin, Lang::En) => {
                "a drop comes from the hand and has no origin square".into()
            }
            (ParseMoveError::DropWithOrigin, Lang::De) => {
                "ein Einsatz kommt aus der Hand und hat kein Startfeld".into()
            }
            (ParseMoveError::PromotingDrop, Lang::En) => "dropped pieces never promote".into(),
            (ParseMoveError::PromotingDrop, Lang::De) => {
                "eingesetzte Figuren werden nie befördert".into()
            }
        }
    }
}

fn square_text(sq: Square) -> String {
    sq.to_string()
}

impl Localize for MoveInputError {
    fn localize(&self, lang: Lang) -> String {
        match (self, lang) {
            (MoveInputError::Unparseable(e), _) => e.localize(lang),
            (MoveInputError::NoPreviousMove, Lang::En) => {
                "同 (same square) needs a previous move".into()
            }
            (MoveInputError::NoPreviousMove, Lang::De) => {
                "同 (gleiches Feld) braucht einen vorherigen Zug".into()
            }
            (MoveInputError::Illegal(e), Lang::En) => format!("illegal move: {}", e.localize(lang)),
            (MoveInputError::Illegal(e), Lang::De) => {
                format!("unerlaubter Zug: {}", e.localize(lang))
            }
            (MoveInputError::NoPieceCanReach { kind: Some(k), to }, Lang::En) => {
                format!(
                    "no {} of yours can move to {}",
                    piece_name(*k, lang),
                    square_text(*to)
                )
            }
            (MoveInputError::NoPieceCanReach { kind: Some(k), to }, Lang::De) => format!(
                "keine deiner Figuren vom Typ {} kann nach {} ziehen",
                piece_name(*k, lang),
                square_text(*to)
            ),
            (MoveInputError::NoPieceCanReach { kind: None, to }, Lang::En) => {
                format!(
                    "none of your pieces can move to {} like that",
                    square_text(*to)
                )
            }
            (MoveInputError::NoPieceCanReach { kind: None, to }, Lang::De) => {
                format!(
                    "keine deiner Figuren kann so nach {} ziehen",
                    square_text(*to)
                )
            }
            (
                MoveInputError::WrongPiece {
                    from,
                    written,
                    actual,
                },
                Lang::En,
            ) => format!(
                "on {from} there is {}, not a {}",
                actual.map_or("no piece".to_string(), |a| format!(
                    "a {}",
                    piece_name(a, lang)
                )),
                piece_name(*written, lang)
            ),
            (
                MoveInputError::WrongPiece {
                    from,
                    written,
                    actual,
                },
                Lang::De,
            ) => format!(
                "auf {from} steht {} – du hast „{}“ angegeben",
                actual.map_or("keine Figur".to_string(), de_nominative),
                piece_name(*written, lang)
            ),
            (MoveInputError::NotAsWritten { written, .. }, Lang::En) => {
                format!(
                    "no move fits exactly as written; possible are: {}",
                    written.join(", ")
                )
            }
            (MoveInputError::NotAsWritten { written, .. }, Lang::De) => {
                format!(
                    "kein Zug passt genau so; möglich sind: {}",
                    written.join(", ")
                )
            }
            (MoveInputError::Ambiguous { written, .. }, Lang::En) => {
                format!("that could be several moves: {}", written.join(", "))
            }
            (MoveInputError::Ambiguous { written, .. }, Lang::De) => {
                format!("das passt auf mehrere Züge: {}", written.join(", "))
            }
        }
    }
}

fn format_name(f: RecordFormat) -> &'static str {
    match f {
        RecordFormat::Kif => "KIF",
        RecordFormat::Csa => "CSA",
        RecordFormat::Usi => "USI",
    }
}

impl Localize for RecordError {
    fn localize(&self, lang: Lang) -> String {
        match (self, lang) {
            (RecordError::TooLarge(n), Lang::En) => {
                format!("the file is too large for a game record ({n} bytes)")
            }
            (RecordError::TooLarge(n), Lang::De) => {
                format!("die Datei ist zu groß für eine Partie ({n} Bytes)")
            }
            (RecordError::Encoding, Lang::En) => {
                "the file is neither UTF-8 nor Shift-JIS text".into()
            }
            (RecordError::Encoding, Lang::De) => {
                "die Datei ist weder UTF-8- noch Shift-JIS-Text".into()
            }
            (RecordError::Syntax { line, .. }, Lang::En) => {
                format!("line {line} of the record cannot be read")
            }
            (RecordError::Syntax { line, .. }, Lang::De) => {
                format!("Zeile {line} der Partie ist nicht lesbar")
            }
            (RecordError::BadPosition { line, .. }, Lang::En) => {
                format!("the start position (up to line {line}) is not valid")
            }
            (RecordError::BadPosition { line, .. }, Lang::De) => {
                format!("die Startstellung (bis Zeile {line}) ist ungültig")
            }
            (
                RecordError::BadMove {
                    line,
                    number,
                    text,
                    error,
                },
                Lang::En,
            ) => format!(
                "line {line}, move {number} ({text}): {}",
                error.localize(lang)
            ),
            (
                RecordError::BadMove {
                    line,
                    number,
                    text,
                    error,
                },
                Lang::De,
            ) => format!(
                "Zeile {line}, Zug {number} ({text}): {}",
                error.localize(lang)
            ),
            (RecordError::Unsupported(f), Lang::En) => {
                format!(
                    "this game cannot be written as {} (minishogi?)",
                    format_name(*f)
                )
            }
            (RecordError::Unsupported(f), Lang::De) => {
                format!(
                    "diese Partie lässt sich nicht als {} schreiben (Minishogi?)",
                    format_name(*f)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale() {
        assert_eq!(Lang::from_locale("de"), Lang::De);
        assert_eq!(Lang::from_locale("de-AT"), Lang::De);
        assert_eq!(Lang::from_locale("en-US"), Lang::En);
        assert_eq!(Lang::from_locale("ja"), Lang::En);
        assert_eq!(Lang::from_locale(""), Lang::En);
    }

    #[test]
    fn rule_names() {
        let nifu = IllegalMove::Nifu {
            file: 5,
            pawn: Square::SQ_5G,
        };
        assert!(nifu
            .localize(Lang::En)
            .contains("two pawns on a file (nifu)"));
        assert!(nifu
            .localize(Lang::De)
            .contains("Zwei Bauern auf einer Linie (Nifu)"));
        assert!(IllegalMove::PawnDropMate
            .localize(Lang::De)
            .contains("Uchifuzume"));
        let e = MoveInputError::Illegal(IllegalMove::PawnDropMate);
        assert!(e.localize(Lang::En).contains("uchifuzume"));
        let r = RecordError::BadMove {
            line: 12,
            number: 3,
            text: "７六歩".into(),
            error: e,
        };
        assert!(r.localize(Lang::De).starts_with("Zeile 12, Zug 3"));
    }

    #[test]
    fn every_message_exists_in_both_languages() {
        // Exhaustive matches make a missing translation a compile error; this
        // checks that no sentence is empty or left in English for German.
        let sq = Square::SQ_5E;
        let illegal = [
            IllegalMove::OffBoard(sq),
            IllegalMove::NoPiece(sq),
            IllegalMove::NotYourPiece(sq),
            IllegalMove::OwnPieceOnTarget(sq),
            IllegalMove::CannotMoveLikeThat {
                kind: PieceKind::Pawn,
                from: sq,
                to: sq,
            },
            IllegalMove::PathBlocked {
                from: sq,
                to: sq,
                blocker: sq,
            },
            IllegalMove::PieceCannotPromote(PieceKind::Gold),
            IllegalMove::NotInPromotionZone,
            IllegalMove::MustPromote {
                kind: PieceKind::Knight,
                to: sq,
            },
            IllegalMove::NotInHand(PieceKind::Rook),
            IllegalMove::NotDroppable(PieceKind::King),
            IllegalMove::DropOnOccupied(sq),
            IllegalMove::Nifu { file: 5, pawn: sq },
            IllegalMove::DeadDrop {
                kind: PieceKind::Lance,
                to: sq,
            },
            IllegalMove::PawnDropMate,
            IllegalMove::KingIntoCheck {
                to: sq,
                attacker: sq,
            },
            IllegalMove::LeavesKingInCheck {
                attacker: sq,
                was_in_check: true,
            },
            IllegalMove::LeavesKingInCheck {
                attacker: sq,
                was_in_check: false,
            },
        ];
        for e in illegal {
            let (en, de) = (e.localize(Lang::En), e.localize(Lang::De));
            assert!(!en.is_empty() && !de.is_empty() && en != de, "{e:?}");
        }
        let parse = [
            ParseMoveError::Empty,
            ParseMoveError::TooLong { len: 300, max: 200 },
            ParseMoveError::UnexpectedChar { ch: '?' },
            ParseMoveError::IncompleteSquare,
            ParseMoveError::MissingDestination,
            ParseMoveError::TooManySquares,
            ParseMoveError::TooManyPieces,
            ParseMoveError::ConflictingPromotion,
            ParseMoveError::DropWithoutPiece,
            ParseMoveError::DropWithOrigin,
            ParseMoveError::PromotingDrop,
        ];
        for e in parse {
            let (en, de) = (e.localize(Lang::En), e.localize(Lang::De));
            assert!(!en.is_empty() && !de.is_empty() && en != de, "{e:?}");
        }
        let input = [
            MoveInputError::NoPreviousMove,
            MoveInputError::NoPieceCanReach {
                kind: Some(PieceKind::Gold),
                to: sq,
            },
            MoveInputError::NoPieceCanReach { kind: None, to: sq },
            MoveInputError::WrongPiece {
                from: sq,
                written: PieceKind::Silver,
                actual: None,
            },
            MoveInputError::Ambiguous {
                candidates: vec![],
                written: vec!["G4i-5h".into()],
            },
        ];
        for e in input {
            let (en, de) = (e.localize(Lang::En), e.localize(Lang::De));
            assert!(!en.is_empty() && !de.is_empty() && en != de, "{e:?}");
        }
        for k in PieceKind::ALL {
            assert_ne!(piece_name(k, Lang::En), piece_name(k, Lang::De));
        }
    }
}
