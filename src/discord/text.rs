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
        assert!(
            game_choice(Lang::De, 1, &"x".repeat(200), true)
                .chars()
                .count()
                <= 100
        );
    }
}
