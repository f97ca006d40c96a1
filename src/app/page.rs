//! The read-only game page (issue #20): what a page shows of one game, and
//! the unguessable address it is found at.
//!
//! A page address is `<game id>-<tag>`, where the tag is the first 128 bits
//! of HMAC-SHA256 over the game id under the database's page key
//! (`page_secret`, 256 random bits made by migration 0010). So every game,
//! including those played before the page existed, has an address without a
//! stored token; every process over the same database computes the same
//! one; and an address cannot be guessed from the game id. The page shows
//! the players' names as stored, the moves, the result, the latest analysis
//! and the KIF/CSA records: nothing else about anyone.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::message::{Ending, Msg};
use super::play::{stored_ending, stored_termination};
use super::{App, AppResult};
use crate::notation::{write_record, GameRecord, RecordFormat};
use crate::render::{Eval, GameEnd};
use crate::shogi::{Color, Move, Position};
use crate::store::Reader;

/// Bytes of the HMAC kept in an address (128 bits).
const TAG_BYTES: usize = 16;
/// Domain separation: the key signs nothing else, but a label costs nothing.
const TAG_LABEL: &[u8] = b"komadai game page v1\0";

/// What the page of one game shows.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePage {
    /// The game id (shown as "#id", as in Discord).
    pub id: i64,
    /// Sente's name as stored.
    pub sente: String,
    /// Gote's name as stored.
    pub gote: String,
    /// Whether the game is over (its page no longer changes, except for a
    /// later analysis).
    pub finished: bool,
    /// How it ended, said as the bot says it ("Game #3 is over. …").
    pub ending: Option<Msg>,
    /// The start position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The record as KIF, if KIF can write this game (not 5×5).
    pub kif: Option<String>,
    /// The record as CSA, if CSA can write this game.
    pub csa: Option<String>,
    /// The latest `/analyze` of the game, if any.
    pub analysis: Option<PageAnalysis>,
}

/// A stored analysis, ready for [`crate::render::graph::eval_graph_png`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageAnalysis {
    /// One evaluation per ply (index 0: the start position).
    pub evals: Vec<Eval>,
    /// Move numbers of the turning points.
    pub turning: Vec<usize>,
    /// Where the game was decided.
    pub end: Option<GameEnd>,
}

impl GamePage {
    /// The positions of every ply: `[start, after move 1, …]`.
    #[must_use]
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start.clone();
        out.push(pos.clone());
        for &m in &self.moves {
            pos.play_unchecked(m);
            out.push(pos.clone());
        }
        out
    }
}

fn tag(secret: &str, game_id: i64) -> Hmac<Sha256> {
    // Any key length is valid for HMAC.
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(TAG_LABEL);
    mac.update(game_id.to_string().as_bytes());
    mac
}

/// The page address of `game_id` under `secret`: `<id>-<32 hex digits>`.
#[must_use]
pub fn page_token(secret: &str, game_id: i64) -> String {
    let full = tag(secret, game_id).finalize().into_bytes();
    format!("{game_id}-{}", hex::encode(&full[..TAG_BYTES]))
}

/// The game an address names, if its tag is right (compared in constant
/// time). Anything malformed is `None`, like a wrong tag.
#[must_use]
pub fn check_token(secret: &str, token: &str) -> Option<i64> {
    let (id, hex_tag) = token.split_once('-')?;
    if id.is_empty()
        || id.len() > 18
        || id.starts_with('0')
        || !id.bytes().all(|b| b.is_ascii_digit())
        || hex_tag.len() != 2 * TAG_BYTES
        || !hex_tag
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return None;
    }
    let game_id: i64 = id.parse().ok()?;
    let bytes = hex::decode(hex_tag).ok()?;
    tag(secret, game_id)
        .verify_truncated_left(&bytes)
        .ok()
        .map(|()| game_id)
}

/// Evaluations as stored: `cp:N`, `mate:sente:N`, `mate:gote:N`, by spaces.
#[must_use]
pub fn encode_evals(evals: &[Eval]) -> String {
    evals
        .iter()
        .map(|e| match e {
            Eval::Cp(cp) => format!("cp:{cp}"),
            Eval::Mate {
                winner: Color::Sente,
                plies,
            } => format!("mate:sente:{plies}"),
            Eval::Mate {
                winner: Color::Gote,
                plies,
            } => format!("mate:gote:{plies}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The evaluations [`encode_evals`] wrote; `None` for anything else.
#[must_use]
pub fn decode_evals(text: &str) -> Option<Vec<Eval>> {
    text.split_whitespace()
        .map(|t| match t.split(':').collect::<Vec<_>>()[..] {
            ["cp", n] => n.parse().ok().map(Eval::Cp),
            ["mate", side, n] => {
                let winner = match side {
                    "sente" => Color::Sente,
                    "gote" => Color::Gote,
                    _ => return None,
                };
                n.parse().ok().map(|plies| Eval::Mate { winner, plies })
            }
            _ => None,
        })
        .collect()
}

/// Turning points as stored: move numbers by spaces.
#[must_use]
pub fn encode_turning(turning: &[usize]) -> String {
    turning
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn decode_turning(text: &str) -> Option<Vec<usize>> {
    text.split_whitespace().map(|t| t.parse().ok()).collect()
}

impl App {
    /// The page address of a game (see [`page_token`]).
    pub fn page_token(&self, game_id: i64) -> AppResult<String> {
        let secret = self.store()?.read(|r| r.page_secret())?;
        Ok(page_token(&secret, game_id))
    }

    /// The full link to a game's page, when a public base URL is set.
    pub(super) fn page_link(&self, tx: &Reader<'_>, game_id: i64) -> AppResult<Option<String>> {
        let Some(base) = &self.public_url else {
            return Ok(None);
        };
        let token = page_token(&tx.page_secret()?, game_id);
        Ok(Some(format!("{}/g/{token}", base.trim_end_matches('/'))))
    }

    /// `msg` followed by the game page's link, when a public base URL is set.
    pub(super) fn with_page_link(&self, tx: &Reader<'_>, game_id: i64, msg: Msg) -> AppResult<Msg> {
        Ok(match self.page_link(tx, game_id)? {
            Some(url) => Msg::Both(Box::new(msg), Box::new(Msg::GamePage { url })),
            None => msg,
        })
    }

    /// What the page at `token` shows; `None` when the address names no
    /// game (wrong tag, malformed, or no such game): the caller answers
    /// 404 and says nothing more.
    pub fn game_page(&self, token: &str) -> AppResult<Option<GamePage>> {
        let store = self.store()?;
        store.read(|tx| -> AppResult<Option<GamePage>> {
            let Some(id) = check_token(&tx.page_secret()?, token) else {
                return Ok(None);
            };
            if tx.game(id)?.is_none() {
                return Ok(None);
            }
            let l = Self::load(tx, id)?;
            let sente = Self::who(tx, l.row.sente)?.name;
            let gote = Self::who(tx, l.row.gote)?.name;
            let mut rec = GameRecord::from_game(&l.game);
            rec.sente = Some(sente.clone());
            rec.gote = Some(gote.clone());
            if rec.termination.is_none() {
                if let (Some(result), Some(reason)) = (&l.row.result, &l.row.reason) {
                    rec.termination =
                        stored_termination(result, reason, l.game.position().side_to_move());
                }
            }
            let ending: Option<Ending> = stored_ending(tx, &l.row)?;
            let analysis = tx.analysis(id)?.and_then(|(evals, turning)| {
                Some(PageAnalysis {
                    evals: decode_evals(&evals)?,
                    turning: decode_turning(&turning)?,
                    end: super::computer::graph_end(&l.row, l.game.ply()),
                })
            });
            Ok(Some(GamePage {
                id,
                sente,
                gote,
                finished: l.row.status != "active",
                ending: ending.map(|ending| Msg::GameOver {
                    game_id: id,
                    ending,
                }),
                start: l.game.start().clone(),
                moves: l.game.moves().to_vec(),
                kif: write_record(&rec, RecordFormat::Kif).ok(),
                csa: write_record(&rec, RecordFormat::Csa).ok(),
                analysis,
            }))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    #[test]
    fn a_token_names_its_game_and_no_other() {
        let t = page_token(KEY, 42);
        assert!(t.starts_with("42-"));
        assert_eq!(t.len(), 3 + 32);
        assert_eq!(check_token(KEY, &t), Some(42));
        // The same game under another key, or another game's tag, fails.
        assert_eq!(check_token(&KEY.replace('0', "1"), &t), None);
        let other = page_token(KEY, 43);
        let forged = format!("42-{}", &other[3..]);
        assert_eq!(check_token(KEY, &forged), None);
        // Deterministic: every process computes the same address.
        assert_eq!(page_token(KEY, 42), t);
    }

    #[test]
    fn malformed_tokens_are_refused_without_panicking() {
        let good = page_token(KEY, 7);
        let tag = &good[2..];
        for bad in [
            String::new(),
            "7".into(),
            "7-".into(),
            format!("-{tag}"),
            format!("07-{tag}"),
            format!("+7-{tag}"),
            format!("7-{}", tag.to_uppercase()),
            format!("7-{}", &tag[..31]),
            format!("7-{tag}0"),
            format!("7-{}g", &tag[..31]),
            format!("99999999999999999999-{tag}"),
            format!("7-{tag}-1"),
            "7-é".repeat(20),
        ] {
            assert_eq!(check_token(KEY, &bad), None, "{bad}");
        }
    }

    #[test]
    fn evaluations_and_turning_points_round_trip() {
        let evals = vec![
            Eval::Cp(0),
            Eval::Cp(-345),
            Eval::Mate {
                winner: Color::Sente,
                plies: 5,
            },
            Eval::Mate {
                winner: Color::Gote,
                plies: 1,
            },
        ];
        let text = encode_evals(&evals);
        assert_eq!(text, "cp:0 cp:-345 mate:sente:5 mate:gote:1");
        assert_eq!(decode_evals(&text), Some(evals));
        assert_eq!(decode_evals("cp:x"), None);
        assert_eq!(decode_evals("mate:both:3"), None);
        assert_eq!(decode_turning(&encode_turning(&[3, 17])), Some(vec![3, 17]));
    }
}
