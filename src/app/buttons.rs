//! The one dispatcher of button presses; button ids carry what they act on.

use super::message::Refusal;
use super::Action;
use super::{App, AppResult, ButtonAction, Caller, Place};

impl App {
    /// Dispatches a button press (`accept:12`, `takeback-yes:3`, ...).
    pub fn press(&self, caller: &Caller, custom_id: &str, place: Place) -> AppResult {
        let Some((action, id, ply)) = ButtonAction::parse(custom_id) else {
            return Err(Refusal::UnknownButton(custom_id.chars().take(40).collect()).into());
        };
        match action {
            ButtonAction::Accept => self.accept(caller, id, place),
            ButtonAction::Decline => self.close(caller, id, false, place),
            ButtonAction::Cancel => self.close(caller, id, true, place),
            ButtonAction::TakebackYes => self.answer_takeback(caller, id, true, place),
            ButtonAction::TakebackNo => self.answer_takeback(caller, id, false, place),
            ButtonAction::CountYes => self.game_action(caller, Some(id), Action::Count, place),
            ButtonAction::Declare => self.game_action(caller, Some(id), Action::Declare, place),
            ButtonAction::Rematch => self.rematch_in(caller, id, place),
            ButtonAction::ResignYes => {
                self.game_action(caller, Some(id), Action::ResignConfirmed, place)
            }
            ButtonAction::ResignNo => self.resign_cancelled(caller, id, place),
            ButtonAction::EraseYes => self.erase(caller, id),
            ButtonAction::LeagueJoin => self.league(caller, super::LeagueOp::Join(Some(id)), place),
            ButtonAction::LeagueLeave => {
                self.league(caller, super::LeagueOp::Leave(Some(id)), place)
            }
            ButtonAction::LeagueWithdraw => {
                self.league(caller, super::LeagueOp::Withdraw(id), place)
            }
            ButtonAction::ReplayFirst
            | ButtonAction::ReplayBack
            | ButtonAction::ReplayNext
            | ButtonAction::ReplayLast => {
                let mut reply = self.replay(caller, Some(id), ply, place)?;
                reply.replace = true;
                Ok(reply)
            }
        }
    }
}
