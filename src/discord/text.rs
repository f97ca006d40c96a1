//! The few sentences only the Discord adapter says, in English and German.
//! (Everything the app decides is worded in `crate::i18n`.)

use crate::i18n::Lang;

/// The answer when something broke inside.
pub(crate) fn apology(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Sorry, something went wrong on my side. Please try again in a moment.",
        Lang::De => {
            "Entschuldigung, bei mir ist etwas schiefgegangen. Bitte versuch es gleich noch einmal."
        }
    }
}

/// The answer when the work is stored but the answer could not be worded.
pub(crate) fn stored(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Done: it is stored. (I could not write the full answer.)",
        Lang::De => "Erledigt: es ist gespeichert. (Die ganze Antwort konnte ich nicht schreiben.)",
    }
}

/// Added to an answer whose board could not be drawn: the position as SFEN.
pub(crate) fn no_board(lang: Lang, sfen: &str) -> String {
    match lang {
        Lang::En => format!("(I could not draw the board. The position: `{sfen}`)"),
        Lang::De => format!("(Das Brett konnte ich nicht zeichnen. Die Stellung: `{sfen}`)"),
    }
}

/// The answer to an interaction that shutdown overtook.
pub(crate) fn restarting(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "I am restarting right now. What you asked may already be done: \
             check with /board in a minute, and ask again if it is not."
        }
        Lang::De => {
            "Ich starte gerade neu. Was du wolltest, ist vielleicht schon erledigt: \
             schau in einer Minute mit /brett nach und frag sonst noch einmal."
        }
    }
}

/// Said once in the game thread when a DM could not be delivered (50007).
pub(crate) fn dm_failed(lang: Lang, user: u64) -> String {
    match lang {
        Lang::En => format!(
            "<@{user}>, I cannot send you direct messages, so I turned the turn DMs off. \
             Allow direct messages from server members and switch them on again with /settings."
        ),
        Lang::De => format!(
            "<@{user}>, ich kann dir keine Direktnachrichten schicken und habe die Zug-DMs daher \
             ausgeschaltet. Erlaube Direktnachrichten von Servermitgliedern und schalte sie mit \
             /einstellungen wieder ein."
        ),
    }
}

/// The autocomplete line of a game: `#12 vs Bob — your turn`.
pub(crate) fn game_choice(lang: Lang, id: i64, opponent: &str, your_turn: bool) -> String {
    let turn = match (lang, your_turn) {
        (Lang::En, true) => "your turn",
        (Lang::En, false) => "opponent's turn",
        (Lang::De, true) => "du bist am Zug",
        (Lang::De, false) => "Gegner am Zug",
    };
    let line = format!("#{id} vs {opponent} — {turn}");
    line.chars().take(100).collect()
}

/// A link to the game thread in a turn DM.
pub(crate) fn dm_link(lang: Lang, channel: u64) -> String {
    match lang {
        Lang::En => format!("Game thread: <#{channel}>"),
        Lang::De => format!("Partie-Thread: <#{channel}>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_differ() {
        assert_ne!(apology(Lang::En), apology(Lang::De));
        assert_ne!(dm_failed(Lang::En, 1), dm_failed(Lang::De, 1));
        assert_ne!(stored(Lang::En), stored(Lang::De));
        assert_ne!(no_board(Lang::En, "x"), no_board(Lang::De, "x"));
        assert_ne!(restarting(Lang::En), restarting(Lang::De));
        assert!(
            game_choice(Lang::De, 1, &"x".repeat(200), true)
                .chars()
                .count()
                <= 100
        );
    }
}
