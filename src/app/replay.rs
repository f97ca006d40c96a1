//! `/replay`: step through one of the caller's games, ply by ply, with
//! buttons (start, back, forward, end). The buttons carry the game and the
//! ply, so they keep working after a restart and need no stored state.

use super::message::Msg;
use super::{App, AppResult, BoardView, ButtonAction, Caller, Place, Reply, Visibility};
use crate::notation::{format_move, Style};

impl App {
    /// Shows `ply` (default: the last) of the caller's game (default: the
    /// game of this thread, else the most recent one), privately, with the
    /// move that led there in the caller's notation and the step buttons.
    pub fn replay(
        &self,
        caller: &Caller,
        game: Option<i64>,
        ply: Option<usize>,
        place: Place,
    ) -> AppResult {
        let store = self.store()?;
        store.read(|tx| -> AppResult {
            let l = Self::pick_game_any(tx, caller, game, place)?;
            let me = Self::player(tx, caller.id)?;
            let style = Style::from_name(&me.settings.notation).unwrap_or_default();
            let moves = l.game.moves();
            let total = moves.len();
            let ply = ply.unwrap_or(total).min(total);
            let mut pos = l.game.start().clone();
            for &m in &moves[..ply.saturating_sub(1)] {
                pos.play_unchecked(m);
            }
            let shown = ply.checked_sub(1).map(|i| {
                let prev = i.checked_sub(1).map(|j| moves[j]);
                let text = format_move(&pos, moves[i], style, prev);
                let mover = pos.side_to_move();
                pos.play_unchecked(moves[i]);
                (mover, text)
            });
            let mut reply = Reply::private(
                Msg::Replay {
                    game_id: l.row.id,
                    ply,
                    total,
                    mv: shown,
                },
                caller.lang,
            );
            reply.board = Some(BoardView {
                game_id: l.row.id,
                sfen: pos.to_sfen(),
                last_move: ply.checked_sub(1).map(|i| moves[i].to_string()),
                flip: super::play::flipped(&l.row, &me, Visibility::Caller),
                piece_style: me.settings.piece_style.clone(),
                theme: me.settings.theme.clone(),
                dots: me.settings.dots,
                names: me.settings.names,
                ..BoardView::default()
            });
            let id = l.row.id;
            reply.buttons = vec![
                ButtonAction::ReplayFirst.replay_button(id, 0, ply == 0),
                ButtonAction::ReplayBack.replay_button(id, ply.saturating_sub(1), ply == 0),
                ButtonAction::ReplayNext.replay_button(id, (ply + 1).min(total), ply == total),
                ButtonAction::ReplayLast.replay_button(id, total, ply == total),
            ];
            Ok(reply)
        })
    }
}
