//! An app [`Reply`] prepared for Discord: text with mentions, the board PNG
//! (shown in an embed), an attached file, buttons, ephemeral or not. Built on
//! the blocking pool (rendering), then turned into whichever serenity builder
//! the answer needs.

use serenity::all::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateEmbed, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, EditInteractionResponse, UserId,
};

use crate::app::{ButtonAction, Reply, Visibility};
use crate::i18n::{button_label, Localize};

/// Name of the board attachment; the embed points at `attachment://board.png`.
pub(crate) const BOARD_FILE: &str = "board.png";
/// Longest message content Discord accepts.
const MAX_CONTENT: usize = 2000;

/// A reply ready to send.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outgoing {
    pub content: String,
    pub ephemeral: bool,
    pub png: Option<Vec<u8>>,
    pub file: Option<(String, Vec<u8>)>,
    /// (custom id, label, style, disabled).
    pub buttons: Vec<(String, String, ButtonStyle, bool)>,
    pub mentions: Vec<u64>,
    pub game_id: Option<i64>,
    /// Replaces the message whose button was pressed.
    pub replace: bool,
    /// What the message whose button was pressed becomes, besides this
    /// new message (an answered challenge).
    pub settle: Option<Box<Outgoing>>,
}

impl Outgoing {
    /// Just text.
    pub fn text(content: &str, ephemeral: bool) -> Outgoing {
        Outgoing {
            content: content.chars().take(MAX_CONTENT).collect(),
            ephemeral,
            ..Outgoing::default()
        }
    }

    /// Localises and renders a reply (blocking: draws the board).
    pub fn from_reply(reply: &Reply) -> Result<Outgoing, String> {
        test_hook();
        let text = reply.msg.localize(reply.lang);
        let png = match &reply.board {
            Some(b) => Some(
                b.png(reply.lang)
                    .map_err(|e| format!("board {}: {e}", b.game_id))?,
            ),
            None => None,
        };
        Ok(Outgoing {
            png,
            ..Outgoing::fallback(reply, &text, None)
        })
    }

    /// A reply without its picture: the text (and `extra`, such as the
    /// position's SFEN when the board could not be drawn), the mentions,
    /// buttons and attached file. Draws nothing, so it cannot fail.
    pub fn fallback(reply: &Reply, text: &str, extra: Option<String>) -> Outgoing {
        let ephemeral = reply.visibility == Visibility::Caller;
        let mentions: Vec<u64> = if ephemeral {
            Vec::new()
        } else {
            reply
                .notify
                .iter()
                .filter_map(|&id| u64::try_from(id).ok())
                .collect()
        };
        let mut content: String = mentions.iter().map(|id| format!("<@{id}> ")).collect();
        content.push_str(text);
        if let Some(extra) = extra {
            content.push('\n');
            content.push_str(&extra);
        }
        let content = content.chars().take(MAX_CONTENT).collect();
        let buttons = reply
            .buttons
            .iter()
            .map(|b| {
                let style = match b.action {
                    ButtonAction::Accept
                    | ButtonAction::TakebackYes
                    | ButtonAction::CountYes
                    | ButtonAction::LeagueJoin => ButtonStyle::Success,
                    ButtonAction::Decline
                    | ButtonAction::TakebackNo
                    | ButtonAction::ResignYes
                    | ButtonAction::EraseYes
                    | ButtonAction::LeagueWithdraw => ButtonStyle::Danger,
                    ButtonAction::Declare | ButtonAction::Rematch => ButtonStyle::Primary,
                    ButtonAction::Cancel
                    | ButtonAction::ResignNo
                    | ButtonAction::LeagueLeave
                    | ButtonAction::ReplayFirst
                    | ButtonAction::ReplayBack
                    | ButtonAction::ReplayNext
                    | ButtonAction::ReplayLast => ButtonStyle::Secondary,
                };
                (
                    b.id.clone(),
                    button_label(b.action, reply.lang).to_string(),
                    style,
                    b.disabled,
                )
            })
            .collect();
        Outgoing {
            content,
            ephemeral,
            png: None,
            file: reply.attachment.clone(),
            buttons,
            mentions,
            game_id: reply.board.as_ref().map(|b| b.game_id),
            replace: reply.replace,
            settle: reply
                .settles
                .as_ref()
                .map(|s| Box::new(Outgoing::fallback(s, &s.msg.localize(s.lang), None))),
        }
    }

    fn rows(&self) -> Vec<CreateActionRow> {
        self.buttons
            .chunks(5)
            .take(5)
            .map(|chunk| {
                CreateActionRow::Buttons(
                    chunk
                        .iter()
                        .map(|(id, label, style, disabled)| {
                            CreateButton::new(id.clone())
                                .label(label.clone())
                                .style(*style)
                                .disabled(*disabled)
                        })
                        .collect(),
                )
            })
            .collect()
    }

    fn embed(&self) -> Option<CreateEmbed> {
        self.png.as_ref().map(|_| {
            let mut e = CreateEmbed::new().image(format!("attachment://{BOARD_FILE}"));
            // Boards outside a game (puzzles, lessons, a challenge's
            // set-up position) carry id 0 and no title.
            if let Some(id) = self.game_id.filter(|&id| id > 0) {
                e = e.title(format!("#{id}"));
            }
            e
        })
    }

    fn files(&self) -> Vec<CreateAttachment> {
        let mut v = Vec::new();
        if let Some(png) = &self.png {
            v.push(CreateAttachment::bytes(png.clone(), BOARD_FILE));
        }
        if let Some((name, bytes)) = &self.file {
            v.push(CreateAttachment::bytes(bytes.clone(), name.clone()));
        }
        v
    }

    /// The attached files (the board PNG first), for an answer that carries
    /// them outside a serenity builder (the HTTP reply of `serve --http`).
    pub fn attachments(&self) -> Vec<(String, Vec<u8>)> {
        self.files()
            .into_iter()
            .map(|f| (f.filename, f.data))
            .collect()
    }

    fn allowed(&self) -> CreateAllowedMentions {
        CreateAllowedMentions::new().users(self.mentions.iter().map(|&id| UserId::new(id.max(1))))
    }

    /// As the first answer to an interaction.
    pub fn response(&self) -> CreateInteractionResponseMessage {
        let mut m = CreateInteractionResponseMessage::new()
            .content(self.content.clone())
            .ephemeral(self.ephemeral)
            .allowed_mentions(self.allowed())
            .components(self.rows())
            .add_files(self.files());
        if let Some(e) = self.embed() {
            m = m.embed(e);
        }
        m
    }

    /// As the edit of a deferred answer.
    pub fn edit(&self) -> EditInteractionResponse {
        let mut m = EditInteractionResponse::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed())
            .components(self.rows());
        for f in self.files() {
            m = m.new_attachment(f);
        }
        if let Some(e) = self.embed() {
            m = m.embed(e);
        }
        m
    }

    /// As a follow-up message.
    pub fn followup(&self) -> CreateInteractionResponseFollowup {
        let mut m = CreateInteractionResponseFollowup::new()
            .content(self.content.clone())
            .ephemeral(self.ephemeral)
            .allowed_mentions(self.allowed())
            .components(self.rows())
            .add_files(self.files());
        if let Some(e) = self.embed() {
            m = m.embed(e);
        }
        m
    }

    /// As a channel message (threads, scheduler notices, DMs).
    pub fn message(&self) -> CreateMessage {
        let mut m = CreateMessage::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed())
            .components(self.rows())
            .add_files(self.files());
        if let Some(e) = self.embed() {
            m = m.embed(e);
        }
        m
    }
}

/// Tests of the adapter's fallback make drawing panic here.
#[cfg(test)]
fn test_hook() {
    if tests::PANIC_WHILE_DRAWING.with(std::cell::Cell::get) {
        panic!("drawing the board (test hook)");
    }
}

#[cfg(not(test))]
fn test_hook() {}

#[cfg(test)]
pub(crate) mod tests {
    thread_local! {
        /// Makes [`super::Outgoing::from_reply`] panic on this thread (tests
        /// of the adapter's fallback).
        pub(crate) static PANIC_WHILE_DRAWING: std::cell::Cell<bool> =
            const { std::cell::Cell::new(false) };
    }

    /// A game's board is titled with its number; a board outside a game
    /// (puzzle, lesson, a challenge's set-up position: id 0) has no title.
    #[test]
    fn only_a_games_board_has_a_title() {
        let title = |game_id| {
            let out = super::Outgoing {
                png: Some(vec![0]),
                game_id: Some(game_id),
                ..super::Outgoing::default()
            };
            let embed = serde_json::to_value(out.embed().expect("an embed")).expect("json");
            embed.get("title").cloned()
        };
        assert_eq!(title(7), Some(serde_json::json!("#7")));
        assert_eq!(title(0), None);
    }
}
