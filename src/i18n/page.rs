//! The words of the read-only game page (`web`), in English and German.

use crate::lang::Lang;
use crate::notation::Style;

/// Every fixed word and phrase the game page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageWords {
    /// "Game" (before "#12").
    pub game: &'static str,
    /// Between the players' names.
    pub versus: &'static str,
    /// Under the title while the game goes on.
    pub live: &'static str,
    /// The start position in the move line.
    pub start: &'static str,
    /// "Ply" (before "3 / 40").
    pub ply: &'static str,
    /// Step buttons' titles.
    pub first: &'static str,
    /// Step back.
    pub prev: &'static str,
    /// Step forward.
    pub next: &'static str,
    /// The last position.
    pub last: &'static str,
    /// How to step with the keyboard.
    pub keys: &'static str,
    /// Heading of the move list.
    pub moves: &'static str,
    /// Before the notation choices.
    pub notation: &'static str,
    /// Heading of the downloads.
    pub download: &'static str,
    /// Heading of the evaluation graph.
    pub graph: &'static str,
    /// Its alternative text.
    pub graph_alt: &'static str,
    /// The board picture's alternative text (before the ply).
    pub board_alt: &'static str,
    /// No move played yet.
    pub no_moves: &'static str,
    /// Why there is no KIF/CSA for this game (5×5 boards).
    pub no_record: &'static str,
    /// The page's footer.
    pub footer: &'static str,
}

const EN: PageWords = PageWords {
    game: "Game",
    versus: "vs",
    live: "In progress — this page shows the moves played so far.",
    start: "Start position",
    ply: "Ply",
    first: "First position",
    prev: "Previous move",
    next: "Next move",
    last: "Last position",
    keys: "Arrow keys step through the game; Home and End jump.",
    moves: "Moves",
    notation: "Notation",
    download: "Download",
    graph: "Evaluation",
    graph_alt: "Evaluation graph of the game from Sente's view",
    board_alt: "Board after ply",
    no_moves: "No move yet.",
    no_record: "KIF and CSA cannot write this board size.",
    footer: "A read-only page of komadai, correspondence shogi on Discord.",
};

const DE: PageWords = PageWords {
    game: "Partie",
    versus: "gegen",
    live: "Läuft noch — diese Seite zeigt die bisher gespielten Züge.",
    start: "Anfangsstellung",
    ply: "Halbzug",
    first: "Anfangsstellung",
    prev: "Zug zurück",
    next: "Zug vor",
    last: "Letzte Stellung",
    keys: "Mit den Pfeiltasten durch die Partie; Pos1 und Ende springen.",
    moves: "Züge",
    notation: "Notation",
    download: "Herunterladen",
    graph: "Bewertung",
    graph_alt: "Bewertungsgrafik der Partie aus Sentes Sicht",
    board_alt: "Brett nach Halbzug",
    no_moves: "Noch kein Zug.",
    no_record: "KIF und CSA können diese Brettgröße nicht schreiben.",
    footer: "Eine Nur-Lese-Seite von komadai: Shogi-Fernpartien auf Discord.",
};

/// The page's words in `lang`.
#[must_use]
pub fn page_words(lang: Lang) -> &'static PageWords {
    match lang {
        Lang::En => &EN,
        Lang::De => &DE,
    }
}

/// A notation's name on the page's switch.
#[must_use]
pub fn notation_label(style: Style, lang: Lang) -> &'static str {
    match (style, lang) {
        (Style::Western, Lang::En) => "Western",
        (Style::Western, Lang::De) => "Westlich",
        (Style::WesternNumeric, Lang::En) => "Western (numeric)",
        (Style::WesternNumeric, Lang::De) => "Westlich (Ziffern)",
        (Style::Japanese, Lang::En) => "Japanese",
        (Style::Japanese, Lang::De) => "Japanisch",
        (Style::Usi, _) => "USI",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_there_in_both_languages() {
        for lang in Lang::ALL {
            let w = page_words(lang);
            for s in [
                w.game,
                w.versus,
                w.live,
                w.start,
                w.ply,
                w.first,
                w.prev,
                w.next,
                w.last,
                w.keys,
                w.moves,
                w.notation,
                w.download,
                w.graph,
                w.graph_alt,
                w.board_alt,
                w.no_moves,
                w.no_record,
                w.footer,
            ] {
                assert!(!s.trim().is_empty());
            }
            for style in Style::ALL {
                assert!(!notation_label(style, lang).is_empty());
            }
        }
        assert_ne!(page_words(Lang::En).moves, page_words(Lang::De).moves);
    }
}
