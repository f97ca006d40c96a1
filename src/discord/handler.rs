//! The one error boundary: every interaction goes through here. Commands and
//! buttons call the app on the blocking pool and answer within Discord's
//! three seconds (deferring when the work takes longer than [`DEFER_AFTER`]
//! by default);
//! refusals are ephemeral and localised, internal errors are logged and
//! answered with an apology, and a panic ends only its own task.
//!
//! Work that was committed is never reported as a failure: when the board
//! cannot be drawn (an error or a panic) the answer is the text with the
//! position's SFEN, and when Discord refuses a public answer the message
//! still reaches the game's thread or channel (through the outbox when the
//! app wrote an announcement for it, else posted directly).

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serenity::all::{
    AutoArchiveDuration, ChannelId, ChannelType, Command, CommandDataOptionValue,
    CommandInteraction, ComponentInteraction, Context, CreateAutocompleteResponse,
    CreateInteractionResponse, CreateInteractionResponseMessage, CreateThread, EventHandler,
    GuildId, Http, Interaction, Member, Ready, User,
};
use tokio::sync::{watch, Notify, Semaphore};
use tracing::Instrument;

use super::contract::{self, Outbox};
use super::delivery::{self, classify, Failure, Legs};
use super::first::FirstAnswer;
use super::out::Outgoing;
use super::{commands, metrics, text, InFlight};
use crate::app::{
    Action, App, AppError, AppResult, Caller, Msg, Place, PuzzleKind, Refusal, Reply,
    SettingsChange,
};
use crate::i18n::{Lang, Localize};
use crate::notation::RecordFormat;

/// Work that takes longer than this is deferred (Discord allows 3 s).
pub const DEFER_AFTER: Duration = Duration::from_millis(1000);
/// Discord accepts the first answer to an interaction this long after it
/// was sent; retries of that answer stay inside it.
const FIRST_ANSWER_WINDOW: Duration = Duration::from_millis(2700);
/// Retries of a later answer (edit, follow-up) may take this long.
const LATER_ANSWER_BUDGET: Duration = Duration::from_secs(8);
/// After shutdown began, work still running gets this long before its
/// interaction is answered with "restarting" and the process goes on exiting.
pub(crate) const SHUTDOWN_GRACE: Duration = Duration::from_millis(900);
/// Notices delivered at the same time.
const PARALLEL_DELIVERIES: usize = 8;
/// Notices taken from the outbox per round.
const DUE_LIMIT: usize = 100;
/// The computer worker looks for due jobs this often (and when woken).
const COMPUTER_EVERY: Duration = Duration::from_secs(1);

/// The event handler: the app and what the adapter needs besides it.
#[derive(Clone)]
pub(crate) struct Bot {
    pub app: Arc<App>,
    pub dev_guild: Option<u64>,
    pub defer_after: Duration,
    pub registered: Arc<AtomicBool>,
    pub inflight: Arc<InFlight>,
    /// The outbox (deliveries, acknowledgements, failures).
    pub outbox: Arc<Outbox>,
    /// Legs of notices already done by this process (DM, public post).
    pub legs: Arc<Mutex<HashMap<i64, Legs>>>,
    /// Notices being delivered right now (not taken again meanwhile).
    pub delivering: Arc<Mutex<HashSet<i64>>>,
    /// Wakes the computer worker (a move against the computer was played).
    pub wake_computer: Arc<Notify>,
    /// Wakes the delivery loop (new notices are due).
    pub wake_delivery: Arc<Notify>,
    /// True once shutdown began: no new work is taken.
    pub closing: watch::Receiver<bool>,
}

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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
    let mut caller = Caller::new(id64(user.id.get()), &name, Lang::from_locale(locale));
    // Interactions carry the member's permissions in this channel.
    caller.manages_server = member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild());
    caller
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
        // A subcommand (`/league join`): its name, then its own options.
        let mut options: Vec<&serenity::all::CommandDataOption> = Vec::new();
        for o in &cmd.data.options {
            if let CommandDataOptionValue::SubCommand(inner) = &o.value {
                v.push(("subcommand".to_string(), Value::Str(o.name.clone())));
                options.extend(inner.iter());
            } else {
                options.push(o);
            }
        }
        for o in options {
            let value = match &o.value {
                CommandDataOptionValue::String(s) => Value::Str(s.clone()),
                CommandDataOptionValue::Integer(i) => Value::Int(*i),
                CommandDataOptionValue::Boolean(b) => Value::Bool(*b),
                CommandDataOptionValue::Channel(id) => Value::Int(id64(id.get())),
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
            let opts = crate::app::ChallengeArgs {
                variant: o.str("variant"),
                handicap: o.str("handicap"),
                rule: o.str("rule"),
                days: o.int("days"),
                rated: o.bool("rated"),
                color: o.str("color"),
                start: None,
                stake: o.int("stake"),
                sennichite_replay: o.bool("sennichite"),
            }
            .options()?;
            app.challenge(caller, o.user("member"), &opts, place)
        }
        "move" => {
            let text = o.str("move").unwrap_or_default();
            app.move_command(caller, game, text, place, Some(request))
        }
        "board" => app.board(caller, game, place),
        "games" if o.bool("server") == Some(true) => app.server_games(caller, place),
        "games" => app.games(caller),
        "follow" => app.follow(
            caller,
            game,
            o.user("member"),
            o.bool("stop") == Some(true),
            place,
        ),
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
                orientation: o.str("orientation").map(str::to_string),
                danger: o.str("danger").map(str::to_string),
                dots: o.bool("dots"),
                names: o.bool("names"),
            };
            app.settings(caller, &change)
        }
        "hint" => app.hint(caller, game, place),
        "danger" => app.danger(caller, game, o.str("piece"), place),
        "analyze" => app.analyze(caller, game, place),
        "replay" => {
            let ply = o.int("ply").and_then(|p| usize::try_from(p).ok());
            app.replay(caller, game, ply, place)
        }
        "play" if o.str("level") == Some("ladder") => app.play_ladder(caller, place),
        "play" => {
            let opts = crate::app::ComputerArgs {
                level: o.str("level"),
                variant: o.str("variant"),
                handicap: o.str("handicap"),
                color: o.str("color"),
            }
            .options()?;
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
        "leaderboard" => {
            let by = crate::app::ranking_arg(o.str("by"))?;
            app.leaderboard(caller, place.guild, by)
        }
        "server" => {
            let change = crate::app::ServerChange {
                channel: if o.bool("anywhere") == Some(true) {
                    Some(None)
                } else {
                    o.int("channel").map(Some)
                },
                threads: o.bool("threads"),
                rated: o.bool("rated"),
                days: o.int("days"),
                language: o.str("language").map(str::to_string),
            };
            app.server_settings(caller, place, &change)
        }
        "premove" => {
            let op = match (o.int("clear"), o.str("line")) {
                (Some(0), _) => crate::app::PremoveOp::Clear(None),
                (Some(n), _) => crate::app::PremoveOp::Clear(Some(n)),
                (None, Some(line)) => crate::app::PremoveOp::Add(line),
                (None, None) => crate::app::PremoveOp::List,
            };
            app.premove(caller, game, op, place)
        }
        "privacy" => app.privacy(caller),
        "vacation" => app.vacation(caller, o.str("state").map(|s| s == "on")),
        "league" => {
            use crate::app::LeagueOp;
            let id = o.int("league");
            let create;
            let op = match o.str("subcommand") {
                Some("create") => {
                    create = crate::app::LeagueOptions {
                        name: o.str("name").unwrap_or_default().to_string(),
                        format: o.str("format").map(str::to_string),
                        rounds: o.int("rounds"),
                        variant: o.str("variant").map(str::to_string),
                        days: o.int("days"),
                        rated: o.bool("rated"),
                        start: o.str("start").map(str::to_string),
                        max_players: o.int("players"),
                    };
                    LeagueOp::Create(&create)
                }
                Some("join") => LeagueOp::Join(id),
                Some("leave") => LeagueOp::Leave(id),
                Some("start") => LeagueOp::Start(id),
                Some("standings") => LeagueOp::Standings(id),
                Some("pairings") => LeagueOp::Pairings(id, o.int("round")),
                _ => LeagueOp::List,
            };
            app.league(caller, op, place)
        }
        "help" => Ok(app.slash_help(caller)),
        other => Err(Refusal::UnknownCommand(other.chars().take(40).collect()).into()),
    }
}

/// Prepares a reply for Discord. The work behind it is committed, so this
/// never fails: when localising or drawing fails or panics, the answer is
/// the text that could be written plus the position's SFEN.
pub(crate) fn render_or_fallback(reply: &Reply) -> Outgoing {
    let rendered = catch_unwind(AssertUnwindSafe(|| Outgoing::from_reply(reply)));
    let error = match rendered {
        Ok(Ok(out)) => return out,
        Ok(Err(e)) => e,
        Err(panic) => crate::app::panic_text(&*panic),
    };
    let game = reply.board.as_ref().map(|b| b.game_id);
    tracing::error!(error = %error, game_id = ?game, "drawing a reply failed, answering with text");
    let text = catch_unwind(AssertUnwindSafe(|| reply.msg.localize(reply.lang)))
        .unwrap_or_else(|_| text::stored(reply.lang).to_string());
    let sfen = reply.board.as_ref().map(|b| b.sfen.as_str());
    Outgoing::fallback(reply, &text, sfen.map(|s| text::no_board(reply.lang, s)))
}

/// The outcome of a use case, prepared for sending.
enum Done {
    Reply(Box<Reply>, Outgoing),
    Refused(Outgoing),
    Internal(String, Lang),
    /// Shutdown came first: the work may or may not have been done.
    Restarting(Lang),
}

impl Done {
    fn of(result: AppResult, lang: Lang) -> Done {
        match result {
            Ok(reply) => {
                let out = render_or_fallback(&reply);
                Done::Reply(Box::new(reply), out)
            }
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
            Done::Restarting(lang) => Outgoing::text(text::restarting(*lang), true),
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
    /// The first answer, as `first` says: a REST callback (the builder
    /// carries its files), or the HTTP reply's body (`files` are attached
    /// to it).
    async fn respond(
        self,
        http: &Http,
        first: &FirstAnswer,
        r: CreateInteractionResponse,
        files: &[(String, Vec<u8>)],
    ) -> serenity::Result<()> {
        match (first, self) {
            (FirstAnswer::Body(slot), _) => slot.send(&r, files).await,
            (FirstAnswer::Rest, Target::Command(c)) => c.create_response(http, r).await,
            (FirstAnswer::Rest, Target::Component(c)) => c.create_response(http, r).await,
        }
    }

    /// Defers: a loading state for commands, a silent acknowledgement for buttons.
    async fn defer(
        self,
        http: &Http,
        first: &FirstAnswer,
        ephemeral: bool,
    ) -> serenity::Result<()> {
        let r = match self {
            Target::Command(_) => CreateInteractionResponse::Defer(
                CreateInteractionResponseMessage::new().ephemeral(ephemeral),
            ),
            Target::Component(_) => CreateInteractionResponse::Acknowledge,
        };
        self.respond(http, first, r, &[]).await
    }

    /// The kind and command of the interaction, for the metrics: the
    /// command's name, or a button's action (its custom id up to the first
    /// `:`, without the ids, so the label set stays small).
    fn label(self) -> (&'static str, String) {
        match self {
            Target::Command(c) => ("command", metrics::bounded(&c.data.name)),
            Target::Component(c) => {
                let action = c.data.custom_id.split(':').next().unwrap_or_default();
                ("component", metrics::bounded(action))
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
        self.register(&ctx.http).await;
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        if *self.closing.borrow() {
            // Shutting down: no new work; say so instead of letting it time out.
            let answer = |locale: &str| {
                CreateInteractionResponse::Message(
                    CreateInteractionResponseMessage::new()
                        .content(text::restarting(Lang::from_locale(locale)))
                        .ephemeral(true),
                )
            };
            let _ = match &interaction {
                Interaction::Command(c) => c.create_response(&ctx.http, answer(&c.locale)).await,
                Interaction::Component(c) => c.create_response(&ctx.http, answer(&c.locale)).await,
                _ => Ok(()),
            };
            return;
        }
        let _guard = self.inflight.enter();
        let bot = self.clone();
        let http = ctx.http.clone();
        let copy = interaction.clone();
        let task =
            tokio::spawn(async move { bot.dispatch(&http, &FirstAnswer::Rest, interaction).await });
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

/// Completes `SHUTDOWN_GRACE` after shutdown began (never, if it does not).
async fn grace_after_close(mut closing: watch::Receiver<bool>) {
    if closing.wait_for(|c| *c).await.is_err() {
        std::future::pending::<()>().await;
    }
    tokio::time::sleep(SHUTDOWN_GRACE).await;
}

impl Bot {
    /// Registers the slash commands (once per process; again after a failure).
    pub(crate) async fn register(&self, http: &Http) {
        if self.registered.swap(true, Ordering::SeqCst) {
            return;
        }
        let cmds = commands::all();
        let result = match self.dev_guild {
            Some(g) => GuildId::new(g.max(1))
                .set_commands(http, cmds)
                .await
                .map(drop),
            None => Command::set_global_commands(http, cmds).await.map(drop),
        };
        match result {
            Ok(()) => tracing::info!(guild = ?self.dev_guild, "commands registered"),
            Err(e) => {
                tracing::error!(error = %e, "registering the commands failed");
                self.registered.store(false, Ordering::SeqCst);
            }
        }
    }

    /// Handles one interaction; its first answer goes out as `first` says.
    pub(crate) async fn dispatch(
        &self,
        http: &Arc<Http>,
        first: &FirstAnswer,
        interaction: Interaction,
    ) {
        // Every log line of the interaction carries its id, kind, name,
        // user and channel, and the game once the answer names one.
        let (kind, name, user, channel) = match &interaction {
            Interaction::Command(c) => (
                "command",
                c.data.name.as_str(),
                c.user.id.get(),
                c.channel_id.get(),
            ),
            Interaction::Autocomplete(c) => (
                "autocomplete",
                c.data.name.as_str(),
                c.user.id.get(),
                c.channel_id.get(),
            ),
            Interaction::Component(c) => (
                "component",
                c.data.custom_id.split(':').next().unwrap_or_default(),
                c.user.id.get(),
                c.channel_id.get(),
            ),
            _ => ("other", "", 0, 0),
        };
        let span = tracing::info_span!(
            "interaction",
            id = %interaction.id(),
            kind,
            name = %metrics::bounded(name),
            user = %user,
            channel = %channel,
            game = tracing::field::Empty,
        );
        async move {
            match interaction {
                Interaction::Command(c) => self.command(http, first, &c).await,
                Interaction::Autocomplete(c) => self.autocomplete(http, first, &c).await,
                Interaction::Component(c) => self.component(http, first, &c).await,
                _ => {}
            }
        }
        .instrument(span)
        .await;
    }

    async fn command(&self, http: &Arc<Http>, first: &FirstAnswer, cmd: &CommandInteraction) {
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
            "games"
                | "export"
                | "settings"
                | "hint"
                | "danger"
                | "analyze"
                | "puzzle"
                | "replay"
                | "learn"
                | "vacation"
                | "premove"
                | "server"
                | "follow"
                | "privacy"
        );
        let app = self.app.clone();
        let lang = caller.lang;
        let job = move || {
            let mut caller = caller;
            caller.lang = app.lang_in(caller.id, place.guild, caller.lang);
            let result = run_command(&app, &caller, &name, &opts, place, &request);
            Done::of(result, caller.lang)
        };
        let target = Target::Command(cmd);
        self.answer(http, first, target, cmd.channel_id, job, ephemeral, lang)
            .await;
    }

    async fn component(&self, http: &Arc<Http>, first: &FirstAnswer, c: &ComponentInteraction) {
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
            caller.lang = app.lang_in(caller.id, place.guild, caller.lang);
            let result = app.press(&caller, &custom_id, place);
            Done::of(result, caller.lang)
        };
        let target = Target::Component(c);
        self.answer(http, first, target, c.channel_id, job, false, lang)
            .await;
    }

    /// Runs `job` on the blocking pool and answers; defers if it is slow.
    /// `lang` (the interaction's locale) words the apology if the job panics.
    /// A failed answer is retried while Discord still takes it; a public
    /// answer that Discord refused still reaches the channel.
    #[allow(clippy::too_many_arguments)]
    async fn answer(
        &self,
        http: &Arc<Http>,
        first: &FirstAnswer,
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
        let window = || FIRST_ANSWER_WINDOW.saturating_sub(started.elapsed());
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
                let edits_first = out.replace || out.settle.is_some();
                let sent = if edits_first && matches!(target, Target::Component(_)) {
                    // Not UPDATE_MESSAGE: serenity sends `attachments: []`
                    // with it and the board would vanish (serenity #3068).
                    // Acknowledge, then edit the message with the new board.
                    match delivery::with_retries(window(), || {
                        target.defer(http, first, out.ephemeral)
                    })
                    .await
                    {
                        Ok(()) => {
                            delivery::with_retries(LATER_ANSWER_BUDGET, || {
                                target.after_defer(http, &out, out.ephemeral)
                            })
                            .await
                        }
                        Err(e) => Err(e),
                    }
                } else {
                    let files = out.attachments();
                    delivery::with_retries(window(), || {
                        target.respond(
                            http,
                            first,
                            CreateInteractionResponse::Message(out.response()),
                            &files,
                        )
                    })
                    .await
                };
                (done, sent)
            }
            None => {
                let deferred =
                    delivery::with_retries(window(), || target.defer(http, first, ephemeral)).await;
                if let Err(e) = &deferred {
                    tracing::warn!(error = %e, "deferring failed");
                }
                let done = tokio::select! {
                    r = &mut handle => joined(r),
                    () = grace_after_close(self.closing.clone()) => Done::Restarting(lang),
                };
                let out = done.outgoing();
                let sent = match deferred {
                    Ok(()) => {
                        delivery::with_retries(LATER_ANSWER_BUDGET, || {
                            target.after_defer(http, &out, ephemeral)
                        })
                        .await
                    }
                    Err(e) => Err(e),
                };
                (done, sent)
            }
        };
        let (kind, command) = target.label();
        let outcome = match &done {
            Done::Reply(..) => metrics::Outcome::Ok,
            Done::Refused(_) => metrics::Outcome::Refused,
            Done::Internal(..) => metrics::Outcome::InternalError,
            Done::Restarting(_) => metrics::Outcome::Restarting,
        };
        if let Done::Reply(reply, _) = &done {
            if let Some(board) = &reply.board {
                tracing::Span::current().record("game", board.game_id);
            }
        }
        tracing::info!(
            outcome = outcome.label(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            answered = sent.is_ok(),
            "answered"
        );
        metrics::interaction(kind, &command, outcome, started.elapsed());
        let Done::Reply(reply, out) = done else {
            if let Err(e) = sent {
                tracing::warn!(error = %e, "answering an interaction failed");
            }
            return;
        };
        let announcements = contract::announcements(&reply);
        if let (Ok(()), Some(settle), Target::Component(c)) = (&sent, &out.settle, target) {
            // After the answer (a follow-up), so that a failed edit never
            // repeats it: the challenge's message says who answered it.
            let edited = delivery::with_retries(LATER_ANSWER_BUDGET, || async {
                c.edit_response(http, settle.edit()).await.map(drop)
            })
            .await;
            if let Err(e) = edited {
                tracing::warn!(error = %e, "settling the challenge's message failed");
            }
        }
        match sent {
            Ok(()) => {
                for id in announcements {
                    self.outbox_call(move |o| o.ack(id)).await;
                }
            }
            Err(e) if !out.ephemeral => {
                tracing::warn!(error = %e, "a public answer failed, it goes to the channel");
                if !announcements.is_empty() {
                    // The outbox delivers the announcements instead.
                    for id in announcements {
                        self.outbox_call(move |o| o.release(id)).await;
                    }
                    self.wake_delivery.notify_one();
                } else if let Err(e) = delivery::post(http, id64(channel.get()), &out).await {
                    tracing::error!(error = %e, "posting the answer in the channel failed too");
                }
            }
            Err(e) => tracing::warn!(error = %e, "answering an interaction failed"),
        }
        self.wake_computer.notify_one();
        self.after(http, channel, &reply, &out).await;
    }

    /// Work after the answer: a thread for a new game, a DM for the player to move.
    async fn after(&self, http: &Arc<Http>, channel: ChannelId, reply: &Reply, out: &Outgoing) {
        if let Some((game_id, sente, gote)) = started(&reply.msg) {
            let name: String = format!("#{game_id} ☗{} – ☖{}", sente.name, gote.name)
                .chars()
                .take(100)
                .collect();
            // The server's settings: its game channel, threads on or off.
            let app = self.app.clone();
            let home = tokio::task::spawn_blocking(move || app.start_place(game_id)).await;
            let home = match home {
                Ok(Ok(h)) => h,
                _ => crate::app::StartPlace {
                    channel: None,
                    thread: true,
                },
            };
            let here = id64(channel.get());
            let there = home
                .channel
                .and_then(|c| u64::try_from(c).ok())
                .filter(|c| *c != 0)
                .map_or(channel, ChannelId::new);
            if home.thread {
                self.open_thread(http, there, game_id, &name, out).await;
            } else if id64(there.get()) != here {
                let mut first = out.clone();
                first.buttons.clear();
                if let Err(e) = delivery::post(http, id64(there.get()), &first).await {
                    tracing::warn!(game_id, error = %e, "posting in the game channel failed");
                }
            }
            return;
        }
        if let Msg::MovePlayed {
            game_id,
            next: Some(next),
            ..
        } = &reply.msg
        {
            self.turn_dm(http, *game_id, next.id, out).await;
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
        let Err(e) = delivery::direct(http, user, &dm).await else {
            return;
        };
        if classify(&e) != Failure::CannotDm {
            tracing::warn!(user, error = %e, "turn DM failed");
            return;
        }
        let Some(lang) = self.dms_failed(user).await else {
            return;
        };
        if let Some(ch) = channel {
            let note = Outgoing {
                mentions: vec![uid],
                ..Outgoing::text(&text::dm_failed(lang, uid), false)
            };
            let _ = delivery::post(http, ch, &note).await;
        }
    }

    /// The language `user` reads (English if unknown).
    pub(crate) async fn lang_of(&self, user: i64) -> Lang {
        let app = self.app.clone();
        tokio::task::spawn_blocking(move || app.lang_for(user, Lang::En))
            .await
            .unwrap_or(Lang::En)
    }

    /// Turns `user`'s turn DMs off; the language to tell them in.
    pub(crate) async fn dms_failed(&self, user: i64) -> Option<Lang> {
        let app = self.app.clone();
        match tokio::task::spawn_blocking(move || app.dms_failed(user)).await {
            Ok(Ok(lang)) => Some(lang),
            Ok(Err(e)) => {
                tracing::error!(user, error = %e, "turning the DMs off failed");
                None
            }
            Err(e) => {
                tracing::error!(user, error = %e, "turning the DMs off panicked");
                None
            }
        }
    }

    /// Runs an outbox call on the blocking pool; failures are logged.
    pub(crate) async fn outbox_call(
        &self,
        f: impl FnOnce(&Outbox) -> AppResult<()> + Send + 'static,
    ) {
        let outbox = self.outbox.clone();
        match tokio::task::spawn_blocking(move || f(&outbox)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!(error = %e, "outbox update failed"),
            Err(e) => tracing::error!(error = %e, "outbox update panicked"),
        }
    }

    /// What this process already did for notice `id`.
    pub(crate) fn legs(&self, id: i64) -> Legs {
        locked(&self.legs).get(&id).copied().unwrap_or_default()
    }

    /// Remembers the legs done for a notice that will be retried.
    pub(crate) fn remember_legs(&self, id: i64, legs: Legs) {
        locked(&self.legs).insert(id, legs);
    }

    /// The notice is settled.
    pub(crate) fn forget_legs(&self, id: i64) {
        locked(&self.legs).remove(&id);
    }

    async fn autocomplete(&self, http: &Arc<Http>, first: &FirstAnswer, cmd: &CommandInteraction) {
        let started = Instant::now();
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
            } else if command == "danger" {
                app.danger_suggestions(&caller, game, &typed, place, 25)
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
        let answer = CreateInteractionResponse::Autocomplete(resp);
        let outcome = match Target::Command(cmd).respond(http, first, answer, &[]).await {
            Ok(()) => metrics::Outcome::Ok,
            Err(e) => {
                tracing::warn!(error = %e, "autocomplete answer failed");
                metrics::Outcome::Unanswered
            }
        };
        let command = metrics::bounded(&cmd.data.name);
        metrics::interaction("autocomplete", &command, outcome, started.elapsed());
    }
}

/// The deadline scheduler and the outbox delivery: every `every` it decides
/// what is due (reminders, timeouts, expired challenges), and whenever woken
/// it delivers the due notices, each in its own task (at most
/// [`PARALLEL_DELIVERIES`] at a time), so a slow or failing notice never
/// holds up the others. A notice is acknowledged once delivered, so a
/// restart delivers what was left.
pub(crate) async fn scheduler(
    bot: Bot,
    http: Arc<Http>,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let slots = Arc::new(Semaphore::new(PARALLEL_DELIVERIES));
    let mut tasks = tokio::task::JoinSet::new();
    loop {
        let decide = tokio::select! {
            _ = interval.tick() => true,
            () = bot.wake_delivery.notified() => false,
            _ = stop.changed() => break,
        };
        while tasks.try_join_next().is_some() {}
        let outbox = bot.outbox.clone();
        let due = tokio::task::spawn_blocking(move || {
            if decide {
                if let Err(e) = outbox.tick() {
                    tracing::error!(error = %e, "scheduler step failed");
                }
            }
            outbox.due(DUE_LIMIT)
        })
        .await;
        let due = match due {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => {
                tracing::error!(error = %e, "reading the due notices failed");
                continue;
            }
            Err(e) => {
                tracing::error!(error = %e, "reading the due notices panicked");
                continue;
            }
        };
        for n in due {
            if !locked(&bot.delivering).insert(n.id) {
                continue;
            }
            let (bot, http, slots) = (bot.clone(), http.clone(), slots.clone());
            tasks.spawn(async move {
                let _slot = slots.acquire_owned().await;
                let id = n.id;
                delivery::deliver(&bot, &http, n).await;
                let mut delivering = locked(&bot.delivering);
                delivering.remove(&id);
                metrics::notices_in_delivery(delivering.len());
            });
        }
        metrics::notices_in_delivery(locked(&bot.delivering).len());
    }
    // Deliveries in flight get a moment; the outbox keeps whatever is left.
    let _ = tokio::time::timeout(Duration::from_millis(300), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    tasks.abort_all();
}

/// The computer worker: every second, and at once when a move was played,
/// plays the computer's replies that are due (durable jobs in the store)
/// and has the delivery loop post them. On shutdown it stops waiting at
/// once (the app's shutdown stops the search).
pub(crate) async fn computer_worker(bot: Bot, mut stop: watch::Receiver<bool>) {
    let mut interval = tokio::time::interval(COMPUTER_EVERY);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            () = bot.wake_computer.notified() => {}
            _ = stop.changed() => return,
        }
        let app = bot.app.clone();
        let run = tokio::task::spawn_blocking(move || contract::run_computer_jobs(&app));
        tokio::select! {
            r = run => match r {
                Ok(Ok(0)) => {}
                Ok(Ok(n)) => {
                    metrics::computer_replies(n);
                    bot.wake_delivery.notify_one();
                }
                Ok(Err(e)) => tracing::error!(error = %e, "computer jobs failed"),
                Err(e) => tracing::error!(error = %e, "computer jobs panicked"),
            },
            _ = stop.changed() => return,
        }
    }
}

/// The game a message starts (a challenge accepted, or a game against the
/// computer, whose first move may follow in the same message): it gets a thread.
fn started(msg: &Msg) -> Option<(i64, &crate::app::Who, &crate::app::Who)> {
    match msg {
        Msg::GameStarted {
            game_id,
            sente,
            gote,
            ..
        }
        | Msg::ComputerGameStarted {
            game_id,
            sente,
            gote,
            ..
        } => Some((*game_id, sente, gote)),
        Msg::Both(a, b) => started(a).or_else(|| started(b)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{ChallengeOptions, ManualClock, SeededDice};
    use crate::shogi::Color;
    use crate::store::Store;

    const PLACE: Place = Place {
        guild: Some(9),
        channel: Some(77),
    };

    /// An app with a game in progress between alice (1) and bob (2) in
    /// channel 77, two moves played.
    fn app_with_a_game() -> (App, Caller, Caller, i64) {
        let app = App::new(
            Store::open_in_memory().expect("store"),
            Arc::new(ManualClock::new(1_800_000_000)),
            Arc::new(SeededDice::new(5)),
        );
        app.load_puzzles().expect("the shipped puzzles load");
        let alice = Caller::new(1, "alice", Lang::En);
        let bob = Caller::new(2, "bob", Lang::De);
        let opts = ChallengeOptions {
            color: Some(Color::Sente),
            ..ChallengeOptions::default()
        };
        app.challenge(&alice, Some((2, "bob")), &opts, PLACE)
            .expect("challenge");
        let game = app
            .accept(&bob, 1, PLACE)
            .expect("accept")
            .board
            .expect("board")
            .game_id;
        app.move_command(&alice, Some(game), "7g7f", PLACE, Some("r1"))
            .expect("move");
        app.move_command(&bob, Some(game), "3c3d", PLACE, Some("r2"))
            .expect("move");
        (app, alice, bob, game)
    }

    fn choice_value(v: &serde_json::Value) -> Option<Value> {
        match v {
            serde_json::Value::String(s) => Some(Value::Str(s.clone())),
            serde_json::Value::Number(n) => n.as_i64().map(Value::Int),
            serde_json::Value::Bool(b) => Some(Value::Bool(*b)),
            _ => None,
        }
    }

    /// Finding 3: every choice the bot registers is something the app
    /// accepts. Walks the command definitions (as Discord receives them)
    /// and sends every choice value of every option through `run_command`
    /// with a player who has a game in this channel; a refusal is fine, an
    /// internal error (e.g. a value the database's CHECK rejects) is not.
    #[test]
    fn every_registered_choice_reaches_the_app_without_an_internal_error() {
        let (app, alice, bob, game) = app_with_a_game();
        let mut failures = Vec::new();
        let mut tried = 0;
        for (n, cmd) in commands::all().iter().enumerate() {
            let json = serde_json::to_value(cmd).expect("command json");
            let name = json["name"].as_str().expect("name").to_string();
            for option in json["options"].as_array().into_iter().flatten() {
                let option_name = option["name"].as_str().expect("option name");
                for (k, choice) in option["choices"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let Some(value) = choice_value(&choice["value"]) else {
                        failures.push(format!("/{name} {option_name}: odd value {choice}"));
                        continue;
                    };
                    let mut opts = vec![(option_name.to_string(), value.clone())];
                    // A challenge needs someone to challenge (a new member
                    // each time, so earlier challenges do not refuse it).
                    if name == "challenge" {
                        let id = 100 + i64::try_from(n * 100 + k).unwrap_or(0);
                        opts.push(("member".into(), Value::User(id, format!("m{id}"))));
                    }
                    for caller in [&alice, &bob] {
                        tried += 1;
                        let request = format!("choice-{n}-{k}-{}", caller.id);
                        let result =
                            run_command(&app, caller, &name, &Opts(opts.clone()), PLACE, &request);
                        if let Err(AppError::Internal(e)) = result {
                            failures.push(format!(
                                "/{name} {option_name}: {value:?} by {} -> {e}",
                                caller.name
                            ));
                        }
                    }
                }
            }
        }
        assert!(tried > 50, "only {tried} choices tried");
        // The game the callers share is still usable afterwards.
        assert!(app.board(&alice, Some(game), PLACE).is_ok());
        assert!(
            failures.is_empty(),
            "internal errors:\n{}",
            failures.join("\n")
        );
    }

    /// An argument nobody understands is refused, as on the console, not
    /// dropped: `/play handicap:queen` once started an even game.
    #[test]
    fn unknown_argument_values_are_refused_like_on_the_console() {
        let (app, alice, _, _) = app_with_a_game();
        let str_opt = |k: &str, v: &str| (k.to_string(), Value::Str(v.to_string()));
        for (name, opts) in [
            ("play", vec![str_opt("handicap", "queen")]),
            ("play", vec![str_opt("level", "godlike")]),
            ("play", vec![str_opt("color", "green")]),
            (
                "challenge",
                vec![
                    ("member".to_string(), Value::User(50, "m".into())),
                    str_opt("handicap", "queen"),
                ],
            ),
            (
                "challenge",
                vec![
                    ("member".to_string(), Value::User(51, "n".into())),
                    str_opt("variant", "chess"),
                ],
            ),
        ] {
            let result = run_command(&app, &alice, name, &Opts(opts), PLACE, "r");
            assert!(
                matches!(result, Err(AppError::Refused(Refusal::NotOneOf { .. }))),
                "/{name}: {result:?}"
            );
        }
    }

    /// Finding 6: a board that cannot be drawn still gives the committed
    /// reply — its text and the position's SFEN — never an apology.
    #[test]
    fn a_board_that_cannot_be_drawn_becomes_text_with_the_sfen() {
        let (app, alice, _, game) = app_with_a_game();
        let mut reply = app.board(&alice, Some(game), PLACE).expect("board");
        let text = reply.msg.localize(reply.lang);
        let board = reply.board.as_mut().expect("a board view");
        board.sfen = "not a position".into();
        let Done::Reply(_, out) = Done::of(Ok(reply), Lang::En) else {
            panic!("a committed reply must not become an error");
        };
        assert!(out.png.is_none());
        assert!(out.content.contains(&text), "{}", out.content);
        assert!(out.content.contains("`not a position`"), "{}", out.content);
        assert!(!out.content.contains(text::apology(Lang::En)));
    }

    /// Finding 6: a panic while drawing is caught; the answer is the text
    /// with the SFEN, in the reader's language, with the mentions kept.
    #[test]
    fn a_panic_while_drawing_becomes_text_with_the_sfen() {
        let (app, _, bob, game) = app_with_a_game();
        let reply = app
            .move_command(&bob, Some(game), "8c8d", PLACE, Some("x"))
            .expect_err("not bob's turn");
        assert!(matches!(reply, AppError::Refused(_)));
        let alice = Caller::new(1, "alice", Lang::De);
        let reply = app
            .move_command(&alice, Some(game), "2g2f", PLACE, Some("r3"))
            .expect("move");
        let sfen = reply.board.as_ref().expect("board").sfen.clone();
        super::super::out::tests::PANIC_WHILE_DRAWING.with(|c| c.set(true));
        let out = render_or_fallback(&reply);
        super::super::out::tests::PANIC_WHILE_DRAWING.with(|c| c.set(false));
        assert!(out.content.contains(&sfen), "{}", out.content);
        assert!(out.content.contains("Stellung"), "{}", out.content);
        assert!(
            out.content.contains(&format!("<@{}>", bob.id)),
            "{}",
            out.content
        );
        assert!(!out.ephemeral);
        // Without the hook the same reply draws its board.
        assert!(render_or_fallback(&reply).png.is_some());
    }
}
