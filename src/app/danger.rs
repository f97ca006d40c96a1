//! `/danger`: the danger help asked for. Privately, the caller's board with
//! their hanging pieces outlined and, for a piece they name, its targets:
//! green where it stays safe, orange where it could be taken without a
//! recapture. Never in rated or ladder games (like hints).

use super::message::{Msg, Refusal};
use super::play::danger_marks;
use super::{App, AppResult, Caller, Place, Reply, Visibility};
use crate::engine::danger::{targets, Origin};
use crate::shogi::{Move, PieceKind, Position, Square};

/// A piece as the player names it: a square (`7g`, `76`) or a kind in hand
/// (`B*`, `*B`, `b*`). `None` for anything else.
#[must_use]
pub fn parse_origin(text: &str) -> Option<Origin> {
    let t: String = text.trim().chars().filter(|c| !c.is_whitespace()).collect();
    let chars: Vec<char> = t.chars().collect();
    match chars.as_slice() {
        [k, '*'] | ['*', k] => PieceKind::from_usi_char(*k)
            .filter(|k| PieceKind::HAND.contains(k))
            .map(Origin::Hand),
        [f, r] if f.is_ascii_digit() && r.is_ascii_digit() => {
            let rank = char::from(b'a' + (*r as u8 - b'1'));
            Square::from_usi(&format!("{f}{rank}")).map(Origin::Board)
        }
        [_, _] => Square::from_usi(&t.to_ascii_lowercase()).map(Origin::Board),
        _ => None,
    }
}

/// How a player names the pieces that can move, for autocomplete: (kind,
/// value to send), board pieces in square order, then those in hand.
fn movable(pos: &Position) -> Vec<(PieceKind, Option<Square>, String)> {
    let mut v: Vec<(PieceKind, Option<Square>, String)> = Vec::new();
    for m in pos.legal_moves().iter().copied() {
        let entry = match m {
            Move::Normal { from, .. } => {
                let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                (kind, Some(from), from.to_string())
            }
            Move::Drop { kind, .. } => (kind, None, format!("{}*", kind.usi_char())),
        };
        if !v.iter().any(|e| e.2 == entry.2) {
            v.push(entry);
        }
    }
    v.sort_by_key(|(_, sq, _)| sq.map_or(usize::MAX, Square::index));
    v
}

impl App {
    /// `/danger [piece]` in the caller's game: privately, the board with the
    /// danger help. Without a piece, the hanging pieces; with one (the
    /// caller's move only), also its safe and unsafe targets.
    pub fn danger(
        &self,
        caller: &Caller,
        game: Option<i64>,
        piece: Option<&str>,
        place: Place,
    ) -> AppResult {
        super::check_len(piece.unwrap_or_default())?;
        let store = self.store()?;
        store.read(|tx| -> AppResult {
            let l = Self::pick_game(tx, caller, game, place)?;
            if l.row.status != "active" {
                return Err(Refusal::GameIsOver.into());
            }
            if l.row.rated {
                return Err(Refusal::NoDangerInRated.into());
            }
            if tx.is_ladder(l.row.id)? {
                return Err(Refusal::NoHelpOnLadder.into());
            }
            let Some(side) = l.color_of(caller.id) else {
                return Err(Refusal::NotYourGame.into());
            };
            let pos = l.game.position();
            let mut marks = danger_marks(pos, side);
            let mut asked = None;
            if let Some(text) = piece.filter(|t| !t.trim().is_empty()) {
                let origin = parse_origin(text).ok_or_else(|| Refusal::NoSuchPiece(text.into()))?;
                if l.to_move() != caller.id {
                    let to_move = Self::who(tx, l.to_move())?;
                    return Err(Refusal::NotYourTurn { to_move }.into());
                }
                let kind = match origin {
                    Origin::Board(sq) => match pos.piece_at(sq) {
                        Some(p) if p.color == side => p.kind,
                        _ => return Err(Refusal::NoSuchPiece(text.into()).into()),
                    },
                    Origin::Hand(k) if pos.hand(side).count(k) > 0 => k,
                    Origin::Hand(_) => return Err(Refusal::NoSuchPiece(text.into()).into()),
                };
                let t = targets(pos, origin);
                marks.selected = match origin {
                    Origin::Board(sq) => Some(sq),
                    Origin::Hand(_) => None,
                };
                asked = Some((
                    kind,
                    marks.selected.map(|s| s.to_string()),
                    t.safe.len(),
                    t.unsafe_targets.iter().map(ToString::to_string).collect(),
                ));
                marks.safe = t.safe;
                marks.unsafe_targets = t.unsafe_targets;
            }
            let hanging = marks
                .hanging
                .iter()
                .map(|&sq| {
                    (
                        pos.piece_at(sq).map_or(PieceKind::Pawn, |p| p.kind),
                        sq.to_string(),
                    )
                })
                .collect();
            let me = Self::player(tx, caller.id)?;
            let mut reply = Reply::private(
                Msg::Danger {
                    game_id: l.row.id,
                    hanging,
                    piece: asked,
                },
                caller.lang,
            );
            let mut view = Self::board_view(tx, &l, &me, Visibility::Caller)?;
            view.danger = Some(marks);
            reply.board = Some(view);
            Ok(reply)
        })
    }

    /// The caller's pieces that can move in their game, for `/danger`'s
    /// autocomplete: (label, value), filtered by what was typed.
    pub fn danger_suggestions(
        &self,
        caller: &Caller,
        game: Option<i64>,
        typed: &str,
        place: Place,
        limit: usize,
    ) -> AppResult<Vec<(String, String)>> {
        let typed = typed.trim().to_lowercase();
        let lang = self.lang_for(caller.id, caller.lang);
        let store = self.store()?;
        store.read(|tx| -> AppResult<_> {
            let Ok(l) = Self::pick_game(tx, caller, game, place) else {
                return Ok(Vec::new());
            };
            if l.row.status != "active" || l.to_move() != caller.id {
                return Ok(Vec::new());
            }
            Ok(movable(l.game.position())
                .into_iter()
                .map(|(kind, sq, value)| (crate::i18n::piece_at_label(kind, sq, lang), value))
                .filter(|(label, value)| {
                    typed.is_empty()
                        || label.to_lowercase().contains(&typed)
                        || value.to_lowercase().contains(&typed)
                })
                .take(limit)
                .collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_named_by_square_or_in_hand() {
        let sq = |s| Some(Origin::Board(Square::from_usi(s).unwrap()));
        assert_eq!(parse_origin("7g"), sq("7g"));
        assert_eq!(parse_origin(" 7G "), sq("7g"));
        assert_eq!(parse_origin("77"), sq("7g"));
        assert_eq!(parse_origin("B*"), Some(Origin::Hand(PieceKind::Bishop)));
        assert_eq!(parse_origin("*p"), Some(Origin::Hand(PieceKind::Pawn)));
        assert_eq!(parse_origin("K*"), None, "a king is never in hand");
        assert_eq!(parse_origin("0a"), None);
        assert_eq!(parse_origin("7g7f"), None);
        assert_eq!(parse_origin(""), None);
    }

    #[test]
    fn autocomplete_lists_board_pieces_then_the_hand() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b B 1").unwrap();
        let v = movable(&pos);
        assert_eq!(v.first().map(|e| e.2.as_str()), Some("5i"));
        assert_eq!(v.last().map(|e| e.2.as_str()), Some("B*"));
        assert_eq!(v.len(), 2);
    }
}
