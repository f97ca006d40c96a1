//! Challenges: open, accept, decline, cancel, rematch.

use super::caps::Kind;
use super::message::{Msg, Refusal, Who};
use super::stored::{handicap_from, handicap_name, rule_name, variant_name};
use super::{
    check_len, App, AppError, AppResult, BoardView, Button, ButtonAction, Caller, Place, Reply,
    Visibility, CHALLENGE_TTL, DAY,
};
use crate::shogi::{Color, EnteringKingRule, Handicap, Position, Variant};
use crate::store::{NewChallenge, NewGame};

use super::play::*;

/// What a challenge asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeOptions {
    /// Standard or minishogi.
    pub variant: Variant,
    /// Handicap (9×9 only; the handicap giver plays Gote).
    pub handicap: Option<Handicap>,
    /// Entering-king rule.
    pub rule: EnteringKingRule,
    /// Days per move: 1, 2, 3, 5, 7 or 14.
    pub days: i64,
    /// Rated (even 9×9 games only).
    pub rated: bool,
    /// The challenger's colour: Sente, Gote, or `None` for furigoma.
    pub color: Option<Color>,
    /// Whether `days` was given (else the server's default applies).
    pub days_given: bool,
    /// Whether `rated` was given (else the server may make it unrated).
    pub rated_given: bool,
    /// A custom start position (never rated); its board size decides the variant.
    pub start: Option<Position>,
    /// Taler each player puts in (rated games only; 0: none).
    pub stake: i64,
    /// A sennichite starts the next game at once, colours swapped (the
    /// professional rule), instead of ending in a draw.
    pub sennichite_replay: bool,
}

impl Default for ChallengeOptions {
    fn default() -> Self {
        ChallengeOptions {
            variant: Variant::Standard,
            handicap: None,
            rule: EnteringKingRule::Declaration27,
            days: 3,
            rated: true,
            color: None,
            days_given: false,
            rated_given: false,
            start: None,
            stake: 0,
            sennichite_replay: false,
        }
    }
}

/// The largest stake a challenge may set, in Taler.
pub const MAX_STAKE: i64 = 100_000;

/// Every player's Taler balance before their first game.
pub const START_TALER: i64 = 1000;

/// Points a rated win gives (and a rated loss takes).
pub const POINTS_PER_GAME: i64 = 10;

/// The allowed days per move.
pub const DAYS_PER_MOVE: [i64; 6] = [1, 2, 3, 5, 7, 14];

impl App {
    /// `/challenge`: challenges `opponent` (or anyone, when `None`).
    pub fn challenge(
        &self,
        caller: &Caller,
        opponent: Option<(i64, &str)>,
        opts: &ChallengeOptions,
        place: Place,
    ) -> AppResult {
        check_len(&caller.name)?;
        if let Some((_, name)) = opponent {
            check_len(name)?;
        }
        let opts = &self.with_server_defaults(opts, place)?;
        if opponent.is_some_and(|(id, _)| id == caller.id) {
            return Err(Refusal::SelfChallenge.into());
        }
        if !DAYS_PER_MOVE.contains(&opts.days) {
            return Err(Refusal::BadDays.into());
        }
        if opts.handicap.is_some() && opts.variant == Variant::Minishogi {
            return Err(Refusal::HandicapInMinishogi.into());
        }
        if opts
            .start
            .as_ref()
            .is_some_and(|p| p.variant() != opts.variant)
        {
            return Err(Refusal::BadArgument("variant".into()).into());
        }
        if opts.start.is_some() && opts.handicap.is_some() {
            return Err(Refusal::BadArgument("handicap".into()).into());
        }
        if let Some(start) = &opts.start {
            if let Some(why) = start_is_over(start) {
                return Err(Refusal::StartIsOver(why).into());
            }
        }
        if opts.rated
            && (opts.handicap.is_some()
                || opts.variant == Variant::Minishogi
                || opts.start.is_some())
        {
            return Err(Refusal::UnratedVariant.into());
        }
        if opts.stake > 0 && !opts.rated {
            return Err(Refusal::StakeNeedsRated.into());
        }
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, now)?;
            if let Some((id, name)) = opponent {
                tx.upsert_player(id, name, now)?;
            }
            not_in_game_thread(tx, place)?;
            self.caps
                .check_challenge(tx, caller.id, opponent.map(|(id, _)| id))?;
            self.caps.check_games(tx, caller.id, true)?;
            let purse = Self::player(tx, caller.id)?.taler;
            if purse < opts.stake {
                return Err(Refusal::NotEnoughTaler {
                    who: caller.who(),
                    have: purse,
                    need: opts.stake,
                }
                .into());
            }
            if opponent.is_some() {
                self.caps.take(tx, caller.id, Kind::Ping, now)?;
            }
            let c = NewChallenge {
                guild_id: place.guild,
                channel_id: place.channel,
                challenger: caller.id,
                challenged: opponent.map(|(id, _)| id),
                variant: variant_name(opts.variant).into(),
                handicap: opts.handicap.map(|h| handicap_name(h).into()),
                rule: rule_name(opts.rule).into(),
                days_per_move: opts.days,
                rated: opts.rated,
                color: match opts.color {
                    Some(Color::Sente) => "sente",
                    Some(Color::Gote) => "gote",
                    None => "random",
                }
                .into(),
                rematch_of: None,
                created_at: now,
                expires_at: now + CHALLENGE_TTL,
                start_sfen: opts.start.as_ref().map(Position::to_sfen),
                stake: opts.stake,
                sennichite_replay: opts.sennichite_replay,
            };
            let id = tx.insert_challenge(&c)?;
            Ok(Self::challenge_reply(
                id,
                caller,
                opponent.map(|(id, n)| Who { id, name: n.into() }),
                &c,
            ))
        })
    }

    pub(super) fn challenge_reply(
        id: i64,
        caller: &Caller,
        challenged: Option<Who>,
        c: &NewChallenge,
    ) -> Reply {
        let mut r = Reply::public(
            Msg::ChallengeMade {
                id,
                challenger: caller.who(),
                challenged: challenged.clone(),
                options: summary_of(c),
            },
            caller.lang,
        );
        r.buttons = vec![
            ButtonAction::Accept.button(id),
            ButtonAction::Decline.button(id),
            ButtonAction::Cancel.button(id),
        ];
        r.notify = challenged.map(|w| w.id).into_iter().collect();
        // A set-up position: whoever may accept sees it before agreeing to it.
        r.board = c
            .start_sfen
            .as_ref()
            .map(|sfen| BoardView::outside_game(sfen.clone(), &crate::store::Settings::default()));
        r
    }

    /// What an answered challenge's message becomes: `msg`, with the
    /// challenge's buttons shown disabled.
    fn settled(id: i64, msg: Msg, lang: crate::lang::Lang) -> Box<Reply> {
        let mut r = Reply::public(msg, lang);
        r.buttons = [
            ButtonAction::Accept,
            ButtonAction::Decline,
            ButtonAction::Cancel,
        ]
        .into_iter()
        .map(|a| Button {
            disabled: true,
            ..a.button(id)
        })
        .collect();
        Box::new(r)
    }

    /// Accept: starts the game.
    pub fn accept(&self, caller: &Caller, challenge_id: i64, place: Place) -> AppResult {
        check_len(&caller.name)?;
        let now = self.now();
        let coin = self.dice.coin();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            tx.upsert_player(caller.id, &caller.name, now)?;
            let c = tx.challenge(challenge_id)?.filter(|c| c.status == "open");
            let Some(c) = c else {
                return Err(Refusal::NoSuchChallenge.into());
            };
            if c.data.expires_at <= now {
                return Err(Refusal::NoSuchChallenge.into());
            }
            if c.data.challenger == caller.id {
                return Err(Refusal::OwnChallenge.into());
            }
            if c.data.challenged.is_some_and(|id| id != caller.id) {
                return Err(Refusal::NotChallenged.into());
            }
            same_server(c.data.guild_id, place)?;
            // The caller's row is locked by the upsert above; the
            // challenger's is locked here, so that two members accepting
            // two of their challenges at once in two processes cannot
            // both pass the challenger's cap.
            tx.lock_player(c.data.challenger)?;
            self.caps.check_games(tx, caller.id, true)?;
            self.caps.check_games(tx, c.data.challenger, false)?;
            let challenger_sente = match c.data.color.as_str() {
                "sente" => true,
                "gote" => false,
                _ => coin,
            };
            let (sente, gote) = if challenger_sente {
                (c.data.challenger, caller.id)
            } else {
                (caller.id, c.data.challenger)
            };
            let custom = match c.data.start_sfen.as_deref().map(Position::from_sfen) {
                Some(Ok(p)) => Some(p),
                Some(Err(e)) => return Err(AppError::Internal(format!("challenge {}: {e}", c.id))),
                None => None,
            };
            let start = match (custom, c.data.handicap.as_deref().and_then(handicap_from)) {
                (Some(p), _) => p,
                (None, Some(h)) => h.start_position(),
                (None, None) if c.data.variant == "minishogi" => Position::minishogi_startpos(),
                (None, None) => Position::startpos(),
            };
            let g = NewGame {
                guild_id: c.data.guild_id.or(place.guild),
                // The server's game channel, if it has one.
                channel_id: super::server::server_of(tx, c.data.guild_id.or(place.guild))?
                    .game_channel
                    .or(c.data.channel_id)
                    .or(place.channel),
                variant: c.data.variant.clone(),
                handicap: c.data.handicap.clone(),
                rule: c.data.rule.clone(),
                days_per_move: c.data.days_per_move,
                rated: c.data.rated,
                sente,
                gote,
                start_sfen: start.to_sfen(),
                deadline: Some(now + c.data.days_per_move * DAY),
                created_at: now,
            };
            // Both stakes go into the pot now; a refusal rolls both back.
            for player in [c.data.challenger, caller.id] {
                if c.data.stake > 0 && !tx.take_stake(player, c.data.stake)? {
                    let p = Self::player(tx, player)?;
                    return Err(Refusal::NotEnoughTaler {
                        who: Who {
                            id: p.user_id,
                            name: p.display_name,
                        },
                        have: p.taler,
                        need: c.data.stake,
                    }
                    .into());
                }
            }
            let game_id = tx.insert_game(&g)?;
            tx.close_challenge(c.id, "accepted", Some(game_id))?;
            let l = Self::load(tx, game_id)?;
            let paused = self.start_paused_if_away(tx, game_id, l.to_move(), now)?;
            let to_move = Self::who(tx, l.to_move())?;
            let viewer = Self::player(tx, l.to_move())?;
            let started = Msg::GameStarted {
                game_id,
                sente: Self::who(tx, sente)?,
                gote: Self::who(tx, gote)?,
                to_move,
                deadline: g.deadline.filter(|_| !paused),
                options: summary_of(&c.data),
            };
            let mut r = Reply::public(self.with_page_link(tx, game_id, started)?, caller.lang);
            r.board = Some(Self::board_view(tx, &l, &viewer, Visibility::Public)?);
            r.notify = vec![c.data.challenger, caller.id];
            let accepted = Msg::ChallengeAccepted {
                id: c.id,
                challenger: Self::who(tx, c.data.challenger)?,
                by: caller.who(),
                game_id,
            };
            r.settles = Some(Self::settled(c.id, accepted, caller.lang));
            Ok(r)
        })
    }

    /// Decline (the challenged player only).
    pub fn decline(&self, caller: &Caller, challenge_id: i64) -> AppResult {
        self.close(caller, challenge_id, false, Place::default())
    }

    /// Cancel (the challenger only).
    pub fn cancel(&self, caller: &Caller, challenge_id: i64) -> AppResult {
        self.close(caller, challenge_id, true, Place::default())
    }

    pub(super) fn close(
        &self,
        caller: &Caller,
        challenge_id: i64,
        cancel: bool,
        place: Place,
    ) -> AppResult {
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let Some(c) = tx.challenge(challenge_id)?.filter(|c| c.status == "open") else {
                return Err(Refusal::NoSuchChallenge.into());
            };
            if cancel && c.data.challenger != caller.id {
                return Err(Refusal::NotChallenger.into());
            }
            if !cancel && c.data.challenged != Some(caller.id) {
                return Err(Refusal::NotChallenged.into());
            }
            same_server(c.data.guild_id, place)?;
            let status = if cancel { "cancelled" } else { "declined" };
            tx.close_challenge(c.id, status, None)?;
            let msg = if cancel {
                Msg::ChallengeCancelled { id: c.id }
            } else {
                Msg::ChallengeDeclined {
                    id: c.id,
                    by: caller.who(),
                }
            };
            let mut r = Reply::public(msg.clone(), caller.lang);
            r.settles = Some(Self::settled(c.id, msg, caller.lang));
            r.notify = vec![if cancel {
                c.data.challenged.unwrap_or(caller.id)
            } else {
                c.data.challenger
            }];
            Ok(r)
        })
    }

    /// Rematch of a finished game: a challenge to the opponent with colours swapped.
    pub fn rematch(&self, caller: &Caller, game_id: i64) -> AppResult {
        self.rematch_in(caller, game_id, Place::default())
    }

    /// [`App::rematch`] asked from `place` (the Rematch button).
    pub(super) fn rematch_in(&self, caller: &Caller, game_id: i64, place: Place) -> AppResult {
        let now = self.now();
        let store = self.store()?;
        store.transaction(|tx| -> AppResult<_> {
            let row = tx.game(game_id)?.ok_or(Refusal::NoSuchGame)?;
            if !row.has_player(caller.id) {
                return Err(Refusal::NotYourGame.into());
            }
            if row.status != "finished" {
                return Err(Refusal::GameNotFinished.into());
            }
            same_server(row.guild_id, place)?;
            let opponent = row.opponent_of(caller.id);
            if super::level_of(opponent).is_some() {
                return Err(Refusal::ComputerTakesNoChallenge.into());
            }
            self.caps.check_challenge(tx, caller.id, Some(opponent))?;
            self.caps.take(tx, caller.id, Kind::Ping, now)?;
            let c = NewChallenge {
                guild_id: row.guild_id,
                channel_id: row.channel_id,
                challenger: caller.id,
                challenged: Some(opponent),
                variant: row.variant.clone(),
                handicap: row.handicap.clone(),
                rule: row.rule.clone(),
                days_per_move: row.days_per_move,
                rated: row.rated,
                // Colours swapped: the caller takes the other side.
                color: if row.sente == caller.id {
                    "gote"
                } else {
                    "sente"
                }
                .into(),
                rematch_of: Some(row.id),
                created_at: now,
                expires_at: now + CHALLENGE_TTL,
                // A game from a custom position is replayed from the same position.
                start_sfen: (row.handicap.is_none()
                    && row.start_sfen != Position::startpos().to_sfen()
                    && row.start_sfen != Position::minishogi_startpos().to_sfen())
                .then(|| row.start_sfen.clone()),
                stake: tx.stake_of_game(row.id)?,
                sennichite_replay: tx.sennichite_replay_of_game(row.id)?,
            };
            let id = tx.insert_challenge(&c)?;
            let who = Self::who(tx, opponent)?;
            Ok(Self::challenge_reply(id, caller, Some(who), &c))
        })
    }
}
