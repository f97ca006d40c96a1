//! The one error boundary: every interaction goes through here. Commands and
//! buttons call the app on the blocking pool and answer within Discord's
//! three seconds (deferring when the work takes longer than [`DEFER_AFTER`]
//! by default);
//! refusals are ephemeral and localised, internal errors are logged and
//! answered with an apology, and a panic ends only its own task.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serenity::all::{
    AutoArchiveDuration, ChannelId, ChannelType, Command, CommandDataOptionValue,
    CommandInteraction, ComponentInteraction, Context, CreateAutocompleteResponse,
    CreateInteractionResponse, CreateInteractionResponseMessage, CreateThread, EventHandler,
    GuildId, Http, Interaction, Member, Ready, User, UserId,
};
use tokio::sync::watch;

use super::out::Outgoing;
use super::{commands, text, InFlight};
use crate::app::{
    handicap_from, rule_from, Action, App, AppError, AppResult, Caller, ChallengeOptions, Msg,
    Notice, Place, PuzzleKind, Refusal, Reply, SettingsChange,
};
use crate::i18n::{Lang, Localize};
use crate::notation::RecordFormat;
use crate::shogi::{Color, Variant};

/// Work that takes longer than this is deferred (Discord allows 3 s).
pub const DEFER_AFTER: Duration = Duration::from_millis(1000);
/// Discord's error code for "cannot send messages to this user".
const CANNOT_DM: isize = 50007;

/// The event handler: the app and what the adapter needs besides it.
#[derive(Clone)]
pub(crate) struct Bot {
    pub app: Arc<App>,
    pub dev_guild: Option<u64>,
    pub defer_after: Duration,
    pub registered: Arc<AtomicBool>,
    pub inflight: Arc<InFlight>,
}

fn id64(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

fn display_name(user: &User, nick: Option<&str>) -> String {
    nick.map(str::to_string)
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone())
}

fn caller_of(user: &User, member: Option<&Member>, locale: &str) -> Caller {
    let name = display_name(user, member.and_then(|m| m.nick.as_deref()));
    Caller::new(id64(user.id.get()), &name, Lang::from_locale(locale))
}

/// An option value of a command.
#[derive(Clone, Debug)]
enum Value {
    Str(String),
    Int(i64),
    Bool(bool),
    User(i64, String),
}

/// The options of one command invocation, by name.
#[derive(Clone, Debug, Default)]
struct Opts(Vec<(String, Value)>);

impl Opts {
    fn of(cmd: &CommandInteraction) -> Opts {
        let mut v = Vec::new();
        for o in &cmd.data.options {
            let value = match &o.value {
                CommandDataOptionValue::String(s) => Value::Str(s.clone()),
                CommandDataOptionValue::Integer(i) => Value::Int(*i),
                CommandDataOptionValue::Boolean(b) => Value::Bool(*b),
                CommandDataOptionValue::User(id) => {
                    let user = cmd.data.resolved.users.get(id);
                    let nick = cmd
                        .data
                        .resolved
                        .members
                        .get(id)
                        .and_then(|m| m.nick.as_deref());
                    let name = user.map_or_else(|| id.to_string(), |u| display_name(u, nick));
                    Value::User(id64(id.get()), name)
                }
                _ => continue,
            };
            v.push((o.name.clone(), value));
        }
        Opts(v)
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    fn str(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(Value::Str(s)) => Some(s),
            _ => None,
        }
    }

    fn int(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Some(Value::Int(i)) => Some(*i),
            _ => None,
        }
    }

    fn bool(&self, name: &str) -> Option<bool> {
        match self.get(name) {
            Some(Value::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    fn user(&self, name: &str) -> Option<(i64, &str)> {
        match self.get(name) {
            Some(Value::User(id, n)) => Some((*id, n.as_str())),
            _ => None,
        }
    }
}

/// Calls the use case behind a slash command.
fn run_command(
    app: &App,
    caller: &Caller,
    name: &str,
    o: &Opts,
    place: Place,
    request: &str,
) -> AppResult {
    let game = o.int("game");
    match name {
        "challenge" => {
            let mut opts = ChallengeOptions::default();
            if o.str("variant") == Some("minishogi") {
                opts.variant = Variant::Minishogi;
            }
            if let Some(h) = o.str("handicap") {
                opts.handicap =
                    Some(handicap_from(h).ok_or_else(|| Refusal::BadArgument(h.into()))?);
            }
            if let Some(r) = o.str("rule") {
                opts.rule = rule_from(r).ok_or_else(|| Refusal::BadArgument(r.into()))?;
            }
            if let Some(d) = o.int("days") {
                opts.days = d;
            }
            opts.rated = o
                .bool("rated")
                .unwrap_or(opts.variant == Variant::Standard && opts.handicap.is_none());
            opts.color = match o.str("color") {
                Some("sente") => Some(Color::Sente),
                Some("gote") => Some(Color::Gote),
                _ => None,
            };
            app.challenge(caller, o.user("member"), &opts, place)
        }
        "move" => {
            let text = o.str("move").unwrap_or_default();
            app.move_command(caller, game, text, place, Some(request))
        }
        "board" => app.board(caller, game, place),
        "games" => app.games(caller),
        "resign" => app.game_action(caller, game, Action::Resign, place),
        "abort" => app.game_action(caller, game, Action::Abort, place),
        "declare" => app.game_action(caller, game, Action::Declare, place),
        "count" => app.game_action(caller, game, Action::Count, place),
        "takeback" => app.takeback(caller, game, place),
        "export" if o.str("format") == Some("gif") => app.export_gif(caller, game, place),
        "export" => {
            let format = match o.str("format") {
                Some("csa") => RecordFormat::Csa,
                Some("sfen") => RecordFormat::Usi,
                _ => RecordFormat::Kif,
            };
            app.export(caller, game, format, place)
        }
        "settings" => {
            let change = SettingsChange {
                notation: o.str("notation").map(str::to_string),
                piece_style: o.str("style").map(str::to_string),
                theme: o.str("theme").map(str::to_string),
                language: o.str("language").map(str::to_string),
                dms: o.bool("dms"),
            };
            app.settings(caller, &change)
        }
        "hint" => app.hint(caller, game, place),
        "analyze" => app.analyze(caller, game, place),
        "replay" => {
            let ply = o.int("ply").and_then(|p| usize::try_from(p).ok());
            app.replay(caller, game, ply, place)
        }
        "play" if o.str("level") == Some("ladder") => app.play_ladder(caller, place),
        "play" => {
            let level = o.str("level").unwrap_or("easy");
            let level = crate::app::level_from(level)
                .ok_or_else(|| Refusal::BadArgument(format!("level {level}")))?;
            let opts = crate::app::ComputerOptions {
                level,
                variant: if o.str("variant") == Some("minishogi") {
                    crate::shogi::Variant::Minishogi
                } else {
                    crate::shogi::Variant::Standard
                },
                handicap: o.str("handicap").and_then(crate::app::handicap_from),
                color: match o.str("color") {
                    Some("sente") => Some(crate::shogi::Color::Sente),
                    Some("gote") => Some(crate::shogi::Color::Gote),
                    _ => None,
                },
            };
            app.play_computer(caller, &opts, place)
        }
        "puzzle" => match o.str("mode") {
            Some("daily") => app.start_puzzle(caller, PuzzleKind::Daily),
            Some("list") => app.daily_list(caller),
            Some("streak") => app.streak(caller),
            _ => {
                let plies = o
                    .int("plies")
                    .map(u32::try_from)
                    .transpose()
                    .map_err(|_| Refusal::NoSuchPuzzle)?;
                app.start_puzzle(caller, PuzzleKind::Random(plies))
            }
        },
        "learn" => app.learn(caller, o.int("lesson"), o.str("move")),
        "stats" => app.stats(caller, o.user("member").map(|(id, _)| id)),
        "leaderboard" => app.leaderboard(caller, place.guild),
        other => Err(Refusal::UnknownCommand(other.chars().take(40).collect()).into()),
    }
}

/// The outcome of a use case, prepared for sending.
enum Done {
    Reply(Box<Reply>, Outgoing),
    Refused(Outgoing),
    Internal(String, Lang),
}

impl Done {
    fn of(result: AppResult, lang: Lang) -> Done {
        match result {
            Ok(reply) => match Outgoing::from_reply(&reply) {
                Ok(out) => Done::Reply(Box::new(reply), out),
                Err(e) => Done::Internal(e, lang),
            },
            Err(AppError::Refused(r)) => Done::Refused(Outgoing::text(&r.localize(lang), true)),
            Err(AppError::Internal(e)) => Done::Internal(e, lang),
        }
    }

    fn outgoing(&self) -> Outgoing {
        match self {
            Done::Reply(_, out) | Done::Refused(out) => out.clone(),
            Done::Internal(e, lang) => {
                tracing::error!(error = %e, "internal error");
                Outgoing::text(text::apology(*lang), true)
            }
        }
    }
}

/// The interaction being answered.
#[derive(Clone, Copy)]
enum Target<'a> {
    Command(&'a CommandInteraction),
    Component(&'a ComponentInteraction),
}

impl Target<'_> {
    async fn respond(self, http: &Http, r: CreateInteractionResponse) -> serenity::Result<()> {
        match self {
            Target::Command(c) => c.create_response(http, r).await,
            Target::Component(c) => c.create_response(http, r).await,
        }
    }

    /// Defers: a loading state for commands, a silent acknowledgement for buttons.
    async fn defer(self, http: &Http, ephemeral: bool) -> serenity::Result<()> {
        match self {
            Target::Command(c) => {
                let m = CreateInteractionResponseMessage::new().ephemeral(ephemeral);
                c.create_response(http, CreateInteractionResponse::Defer(m))
                    .await
            }
            Target::Component(c) => {
                c.create_response(http, CreateInteractionResponse::Acknowledge)
                    .await
            }
        }
    }

    /// Sends the answer after a deferral.
    async fn after_defer(
        self,
        http: &Http,
        out: &Outgoing,
        ephemeral: bool,
    ) -> serenity::Result<()> {
        match self {
            Target::Command(c) if out.ephemeral == ephemeral => {
                c.edit_response(http, out.edit()).await.map(drop)
            }
            Target::Command(c) => {
                // A deferral's visibility cannot change: replace it.
                let _ = c.delete_response(http).await;
                c.create_followup(http, out.followup()).await.map(drop)
            }
            // Stepping through a replay edits the message the button is on
            // (a fresh board attachment replaces the old one).
            Target::Component(c) if out.replace => {
                c.edit_response(http, out.edit()).await.map(drop)
            }
            Target::Component(c) => c.create_followup(http, out.followup()).await.map(drop),
        }
    }
}

#[serenity::async_trait]
impl EventHandler for Bot {
    async fn ready(&self, ctx: Context, ready: Ready) {
        tracing::info!(user = %ready.user.name, shard = ?ready.shard, "connected");
        if self.registered.swap(true, Ordering::SeqCst) {
            return;
        }
        let cmds = commands::all();
        let result = match self.dev_guild {
            Some(g) => GuildId::new(g.max(1))
                .set_commands(&ctx.http, cmds)
                .await
                .map(drop),
            None => Command::set_global_commands(&ctx.http, cmds)
                .await
                .map(drop),
        };
        match result {
            Ok(()) => tracing::info!(guild = ?self.dev_guild, "commands registered"),
            Err(e) => {
                tracing::error!(error = %e, "registering the commands failed");
                self.registered.store(false, Ordering::SeqCst);
            }
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let _guard = self.inflight.enter();
        let bot = self.clone();
        let http = ctx.http.clone();
        let copy = interaction.clone();
        let task = tokio::spawn(async move { bot.dispatch(&http, interaction).await });
        if let Err(e) = task.await {
            tracing::error!(error = %e, "interaction handler failed");
            let msg = CreateInteractionResponse::Message(
                CreateInteractionResponseMessage::new()
                    .content(text::apology(Lang::En))
                    .ephemeral(true),
            );
            // Fails harmlessly when the interaction was already answered.
            let _ = match &copy {
                Interaction::Command(c) => c.create_response(&ctx.http, msg).await,
                Interaction::Component(c) => c.create_response(&ctx.http, msg).await,
                _ => Ok(()),
            };
        }
    }
}

impl Bot {
    async fn dispatch(&self, http: &Arc<Http>, interaction: Interaction) {
        match interaction {
            Interaction::Command(c) => self.command(http, &c).await,
            Interaction::Autocomplete(c) => self.autocomplete(http, &c).await,
            Interaction::Component(c) => self.component(http, &c).await,
            _ => {}
        }
    }

    async fn command(&self, http: &Arc<Http>, cmd: &CommandInteraction) {
        let caller = caller_of(&cmd.user, cmd.member.as_deref(), &cmd.locale);
        let place = Place {
            guild: cmd.guild_id.map(|g| id64(g.get())),
            channel: Some(id64(cmd.channel_id.get())),
        };
        let name = cmd.data.name.clone();
        let opts = Opts::of(cmd);
        let request = format!("interaction:{}", cmd.id);
        let ephemeral = matches!(
            name.as_str(),
            "games" | "export" | "settings" | "hint" | "analyze" | "puzzle" | "replay" | "learn"
        );
        let app = self.app.clone();
        let lang = caller.lang;
        let job = move || {
            let mut caller = caller;
            caller.lang = app.lang_for(caller.id, caller.lang);
            let result = run_command(&app, &caller, &name, &opts, place, &request);
            Done::of(result, caller.lang)
        };
        let target = Target::Command(cmd);
        self.answer(http, target, cmd.channel_id, job, ephemeral, lang)
            .await;
    }

    async fn component(&self, http: &Arc<Http>, c: &ComponentInteraction) {
        let caller = caller_of(&c.user, c.member.as_ref(), &c.locale);
        let place = Place {
            guild: c.guild_id.map(|g| id64(g.get())),
            channel: Some(id64(c.channel_id.get())),
        };
        let custom_id = c.data.custom_id.clone();
        let app = self.app.clone();
        let lang = caller.lang;
        let job = move || {
            let mut caller = caller;
            caller.lang = app.lang_for(caller.id, caller.lang);
            let result = app.press(&caller, &custom_id, place);
            Done::of(result, caller.lang)
        };
        let target = Target::Component(c);
        self.answer(http, target, c.channel_id, job, false, lang)
            .await;
    }

    /// Runs `job` on the blocking pool and answers; defers if it is slow.
    /// `lang` (the interaction's locale) words the apology if the job panics.
    async fn answer(
        &self,
        http: &Arc<Http>,
        target: Target<'_>,
        channel: ChannelId,
        job: impl FnOnce() -> Done + Send + 'static,
        ephemeral: bool,
        lang: Lang,
    ) {
        let started = Instant::now();
        let mut handle = tokio::task::spawn_blocking(job);
        let joined = |r: Result<Done, tokio::task::JoinError>| {
            r.unwrap_or_else(|e| Done::Internal(format!("use case panicked: {e}"), lang))
        };
        let quick = if self.defer_after.is_zero() {
            None
        } else {
            tokio::time::timeout(self.defer_after, &mut handle)
                .await
                .ok()
        };
        let (done, sent) = match quick {
            Some(r) => {
                let done = joined(r);
                let out = done.outgoing();
                let sent = if out.replace && matches!(target, Target::Component(_)) {
                    // Not UPDATE_MESSAGE: serenity sends `attachments: []`
                    // with it and the board would vanish (serenity #3068).
                    // Acknowledge, then edit the message with the new board.
                    match target.defer(http, out.ephemeral).await {
                        Ok(()) => target.after_defer(http, &out, out.ephemeral).await,
                        Err(e) => Err(e),
                    }
                } else {
                    target
                        .respond(http, CreateInteractionResponse::Message(out.response()))
                        .await
                };
                (done, sent)
            }
            None => {
                if let Err(e) = target.defer(http, ephemeral).await {
                    tracing::warn!(error = %e, "deferring failed");
                }
                let done = joined(handle.await);
                let out = done.outgoing();
                let sent = target.after_defer(http, &out, ephemeral).await;
                (done, sent)
            }
        };
        tracing::debug!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "answered"
        );
        if let Err(e) = sent {
            tracing::warn!(error = %e, "answering an interaction failed");
        }
        if let Done::Reply(reply, out) = done {
            self.after(http, channel, &reply, &out).await;
        }
    }

    /// Work after the answer: a thread for a new game, a DM for the player to move.
    async fn after(&self, http: &Arc<Http>, channel: ChannelId, reply: &Reply, out: &Outgoing) {
        match &reply.msg {
            Msg::GameStarted {
                game_id,
                sente,
                gote,
                ..
            } => {
                let name: String = format!("#{game_id} ☗{} – ☖{}", sente.name, gote.name)
                    .chars()
                    .take(100)
                    .collect();
                self.open_thread(http, channel, *game_id, &name, out).await;
            }
            Msg::MovePlayed {
                game_id,
                next: Some(next),
                ..
            } => self.turn_dm(http, *game_id, next.id, out).await,
            _ => {}
        }
    }

    async fn open_thread(
        &self,
        http: &Http,
        channel: ChannelId,
        game_id: i64,
        name: &str,
        out: &Outgoing,
    ) {
        let builder = CreateThread::new(name)
            .kind(ChannelType::PublicThread)
            .auto_archive_duration(AutoArchiveDuration::OneWeek);
        let thread = match channel.create_thread(http, builder).await {
            Ok(t) => t,
            Err(e) => {
                // No permission, a DM, or already inside a thread: the game stays in the channel.
                tracing::info!(game_id, error = %e, "no thread for the game, using the channel");
                return;
            }
        };
        let app = self.app.clone();
        let thread_id = id64(thread.id.get());
        let stored =
            tokio::task::spawn_blocking(move || app.set_game_thread(game_id, thread_id)).await;
        if !matches!(stored, Ok(Ok(()))) {
            tracing::error!(game_id, "could not store the game's thread");
        }
        let mut first = out.clone();
        first.buttons.clear();
        if let Err(e) = thread.id.send_message(http, first.message()).await {
            tracing::warn!(game_id, error = %e, "posting in the new thread failed");
        }
    }

    async fn turn_dm(&self, http: &Http, game_id: i64, user: i64, out: &Outgoing) {
        let app = self.app.clone();
        let looked_up = tokio::task::spawn_blocking(move || {
            (
                app.wants_dms(user),
                app.game_channel(game_id).ok().flatten(),
                app.lang_for(user, Lang::En),
            )
        })
        .await;
        let Ok((true, channel, lang)) = looked_up else {
            return;
        };
        let Ok(uid) = u64::try_from(user) else {
            return;
        };
        let mut dm = out.clone();
        dm.buttons.clear();
        dm.mentions.clear();
        if let Some(ch) = channel.and_then(|c| u64::try_from(c).ok()) {
            dm.content = format!("{}\n{}", dm.content, text::dm_link(lang, ch));
        }
        let Err(e) = UserId::new(uid.max(1))
            .direct_message(http, dm.message())
            .await
        else {
            return;
        };
        if discord_code(&e) != Some(CANNOT_DM) {
            tracing::warn!(user, error = %e, "turn DM failed");
            return;
        }
        let app = self.app.clone();
        let Ok(Ok(lang)) = tokio::task::spawn_blocking(move || app.dms_failed(user)).await else {
            return;
        };
        if let Some(ch) = channel.and_then(|c| u64::try_from(c).ok()) {
            let note = Outgoing {
                mentions: vec![uid],
                ..Outgoing::text(&text::dm_failed(lang, uid), false)
            };
            let _ = ChannelId::new(ch.max(1))
                .send_message(http, note.message())
                .await;
        }
    }

    async fn autocomplete(&self, http: &Arc<Http>, cmd: &CommandInteraction) {
        let Some(focused) = cmd.data.autocomplete() else {
            return;
        };
        let field = focused.name.to_string();
        let command = cmd.data.name.clone();
        let typed: String = focused.value.chars().take(100).collect();
        let caller = caller_of(&cmd.user, cmd.member.as_deref(), &cmd.locale);
        let place = Place {
            guild: cmd.guild_id.map(|g| id64(g.get())),
            channel: Some(id64(cmd.channel_id.get())),
        };
        let game = Opts::of(cmd).int("game");
        let app = self.app.clone();
        let job = move || -> CreateAutocompleteResponse {
            let mut resp = CreateAutocompleteResponse::new();
            if field == "game" {
                let lang = app.lang_for(caller.id, caller.lang);
                if let Ok(Reply {
                    msg: Msg::Games(lines),
                    ..
                }) = app.games(&caller)
                {
                    for l in lines
                        .iter()
                        .filter(|l| typed.is_empty() || l.game_id.to_string().contains(&typed))
                        .take(25)
                    {
                        let label =
                            text::game_choice(lang, l.game_id, &l.opponent.name, l.your_turn);
                        resp = resp.add_int_choice(label, l.game_id);
                    }
                }
            } else if let Ok(list) = if command == "learn" {
                app.learn_suggestions(&caller, &typed, 25)
            } else {
                app.move_suggestions(&caller, game, &typed, place, 25)
            } {
                for (shown, usi) in list.into_iter().take(25) {
                    let label: String = shown.chars().take(100).collect();
                    if !label.is_empty() {
                        resp = resp.add_string_choice(label, usi);
                    }
                }
            }
            resp
        };
        let resp = tokio::task::spawn_blocking(job)
            .await
            .unwrap_or_else(|_| CreateAutocompleteResponse::new());
        if let Err(e) = cmd
            .create_response(http, CreateInteractionResponse::Autocomplete(resp))
            .await
        {
            tracing::warn!(error = %e, "autocomplete answer failed");
        }
    }
}

/// The JSON error code of a failed Discord request.
fn discord_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            Some(r.error.code)
        }
        _ => None,
    }
}

/// Whether a failed delivery will never succeed (the channel is gone or closed to us).
fn permanent(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            matches!(r.status_code.as_u16(), 400 | 403 | 404)
        }
        _ => false,
    }
}

/// A notice to deliver: outbox id, target channel, the prepared message and,
/// for a reminder, the game and player who may also want it as a DM.
type DueNotice = (
    i64,
    Option<i64>,
    Result<Outgoing, String>,
    Option<(i64, i64)>,
);

/// The deadline scheduler: every `every`, decide what is due and post the
/// notices (reminders, timeouts, expired challenges) in the game's thread,
/// which also unarchives it; a reminder also goes by DM to a player who
/// opted in. A notice is acknowledged once delivered, so a restart delivers
/// what was left.
pub(crate) async fn scheduler(
    bot: Bot,
    http: Arc<Http>,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = stop.changed() => return,
        }
        let app = bot.app.clone();
        let due = tokio::task::spawn_blocking(move || -> AppResult<Vec<DueNotice>> {
            app.tick()?;
            let mut v = Vec::new();
            for (id, notice, reply) in app.pending_notices()? {
                let channel = app.notice_channel(&notice)?;
                let dm = match notice {
                    Notice::Reminder {
                        game_id, player, ..
                    } => Some((game_id, player)),
                    _ => None,
                };
                v.push((id, channel, Outgoing::from_reply(&reply), dm));
            }
            Ok(v)
        })
        .await;
        let due = match due {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => {
                tracing::error!(error = %e, "scheduler step failed");
                continue;
            }
            Err(e) => {
                tracing::error!(error = %e, "scheduler step panicked");
                continue;
            }
        };
        for (id, channel, out, dm) in due {
            let delivered = match (channel.and_then(|c| u64::try_from(c).ok()), out) {
                (Some(ch), Ok(out)) => match ChannelId::new(ch.max(1))
                    .send_message(&http, out.message())
                    .await
                {
                    Ok(_) => {
                        if let Some((game, player)) = dm {
                            bot.turn_dm(&http, game, player, &out).await;
                        }
                        true
                    }
                    Err(e) => {
                        tracing::warn!(notice = id, error = %e, "posting a notice failed");
                        permanent(&e)
                    }
                },
                (None, _) => true,
                (_, Err(e)) => {
                    tracing::error!(notice = id, error = %e, "preparing a notice failed");
                    true
                }
            };
            if delivered {
                let app = bot.app.clone();
                if let Ok(Err(e)) = tokio::task::spawn_blocking(move || app.ack_notice(id)).await {
                    tracing::error!(notice = id, error = %e, "acknowledging a notice failed");
                }
            }
        }
    }
}
