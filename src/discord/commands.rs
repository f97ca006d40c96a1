//! The slash commands komadai registers: names and descriptions in English
//! with German localisations, options with their choices.
//!
//! Discord always sends the English (base) names back, whatever the client
//! shows, so the handler matches on the names defined here.

use serenity::all::{CommandOptionType, CreateCommand, CreateCommandOption};

use crate::app::{handicap_name, DAYS_PER_MOVE};
use crate::i18n::{handicap_label, Lang};
use crate::shogi::Handicap;

/// English and German text of one name or description.
type Pair = (&'static str, &'static str);

fn command(name: Pair, desc: Pair) -> CreateCommand {
    CreateCommand::new(name.0)
        .description(desc.0)
        .name_localized("de", name.1)
        .description_localized("de", desc.1)
}

fn option(kind: CommandOptionType, name: Pair, desc: Pair) -> CreateCommandOption {
    CreateCommandOption::new(kind, name.0, desc.0)
        .name_localized("de", name.1)
        .description_localized("de", desc.1)
}

fn choices(mut opt: CreateCommandOption, list: &[(&str, Pair)]) -> CreateCommandOption {
    for (value, (en, de)) in list {
        opt = opt.add_string_choice_localized(*en, *value, [("de", *de)]);
    }
    opt
}

/// A `/settings` option whose choices are the values `i18n` names.
fn setting(name: Pair, description: Pair) -> CreateCommandOption {
    choices(
        option(CommandOptionType::String, name, description),
        crate::i18n::setting_choices(name.0),
    )
}

/// The optional `game` option (its own autocomplete lists the caller's games).
fn game_option() -> CreateCommandOption {
    option(
        CommandOptionType::Integer,
        ("game", "partie"),
        (
            "Which of your games (default: this thread's game or your only game)",
            "Welche deiner Partien (sonst die dieses Threads oder deine einzige)",
        ),
    )
    .set_autocomplete(true)
}

/// A days-per-move option with the allowed values as choices.
fn days_option(desc: Pair) -> CreateCommandOption {
    let mut days = option(CommandOptionType::Integer, ("days", "tage"), desc);
    for d in DAYS_PER_MOVE {
        let n = i32::try_from(d).unwrap_or(3);
        let (en, de) = if d == 1 {
            ("1 day".to_string(), "1 Tag".to_string())
        } else {
            (format!("{d} days"), format!("{d} Tage"))
        };
        days = days.add_int_choice_localized(en, n, [("de", de)]);
    }
    days
}

/// `/server`: the server's settings, for members with Manage Server.
fn server() -> CreateCommand {
    command(
        ("server", "server"),
        (
            "This server's settings: game channel, rated games, days per move, threads, language",
            "Einstellungen dieses Servers: Partienkanal, Wertung, Tage pro Zug, Threads, Sprache",
        ),
    )
    .default_member_permissions(serenity::all::Permissions::MANAGE_GUILD)
    .add_option(
        option(
            CommandOptionType::Channel,
            ("channel", "kanal"),
            (
                "The channel where games start",
                "Der Kanal, in dem Partien beginnen",
            ),
        )
        .channel_types(vec![serenity::all::ChannelType::Text]),
    )
    .add_option(option(
        CommandOptionType::Boolean,
        ("anywhere", "ueberall"),
        (
            "Games start where they are accepted (no game channel)",
            "Partien beginnen, wo sie angenommen werden (kein Partienkanal)",
        ),
    ))
    .add_option(option(
        CommandOptionType::Boolean,
        ("rated", "gewertet"),
        (
            "Whether rated games are allowed",
            "Ob gewertete Partien erlaubt sind",
        ),
    ))
    .add_option(days_option((
        "Default days per move of a challenge",
        "Standard-Tage pro Zug einer Herausforderung",
    )))
    .add_option(option(
        CommandOptionType::Boolean,
        ("threads", "threads"),
        ("A thread for each game", "Ein Thread für jede Partie"),
    ))
    .add_option(choices(
        option(
            CommandOptionType::String,
            ("language", "sprache"),
            (
                "Default language for members who did not choose one",
                "Standardsprache für Mitglieder ohne eigene Wahl",
            ),
        ),
        &[
            ("en", ("English", "Englisch")),
            ("de", ("German", "Deutsch")),
            (
                "auto",
                ("Each member's client", "Die des Clients jedes Mitglieds"),
            ),
        ],
    ))
}

/// The optional `league` option (default: the server's newest that fits).
fn league_option() -> CreateCommandOption {
    option(
        CommandOptionType::Integer,
        ("league", "liga"),
        (
            "The league's number (default: this server's newest)",
            "Die Nummer der Liga (sonst die neueste dieses Servers)",
        ),
    )
    .min_int_value(1)
}

fn sub(name: Pair, desc: Pair) -> CreateCommandOption {
    option(CommandOptionType::SubCommand, name, desc)
}

/// `/league`: server leagues, with a subcommand for each step.
fn league() -> CreateCommand {
    let create = sub(
        ("create", "erstellen"),
        (
            "Create a league (Manage Server): members join with a button until it starts",
            "Eine Liga eröffnen (Server verwalten): Mitglieder treten per Knopf bei, bis sie beginnt",
        ),
    )
    .add_sub_option(
        option(
            CommandOptionType::String,
            ("name", "name"),
            ("The league's name", "Der Name der Liga"),
        )
        .required(true)
        .max_length(crate::app::MAX_LEAGUE_NAME as u16),
    )
    .add_sub_option(choices(
        option(
            CommandOptionType::String,
            ("format", "format"),
            ("How players are paired", "Wie gepaart wird"),
        ),
        &[
            (
                "roundrobin",
                ("Round robin (everyone once)", "Rundenturnier (jeder einmal)"),
            ),
            (
                "double",
                (
                    "Double round robin (everyone twice)",
                    "Doppeltes Rundenturnier (jeder zweimal)",
                ),
            ),
            (
                "swiss",
                (
                    "Swiss system (a fixed number of rounds)",
                    "Schweizer System (feste Rundenzahl)",
                ),
            ),
        ],
    ))
    .add_sub_option(
        option(
            CommandOptionType::Integer,
            ("rounds", "runden"),
            ("Rounds of a Swiss league", "Runden einer Liga im Schweizer System"),
        )
        .min_int_value(1)
        .max_int_value(crate::app::MAX_SWISS_ROUNDS as u64),
    )
    .add_sub_option(variant_option())
    .add_sub_option(days_option(("Days per move", "Tage pro Zug")))
    .add_sub_option(option(
        CommandOptionType::Boolean,
        ("rated", "gewertet"),
        ("Rated games", "Gewertete Partien"),
    ))
    .add_sub_option(
        option(
            CommandOptionType::String,
            ("start", "beginn"),
            (
                "YYYY-MM-DD or YYYY-MM-DD HH:MM (UTC), or now (default: in a week)",
                "JJJJ-MM-TT oder JJJJ-MM-TT HH:MM (UTC) oder jetzt (sonst in einer Woche)",
            ),
        )
        .max_length(40),
    )
    .add_sub_option(
        option(
            CommandOptionType::Integer,
            ("players", "spieler"),
            ("Most players", "Höchstens so viele Spieler"),
        )
        .min_int_value(crate::app::MIN_LEAGUE_PLAYERS as u64)
        .max_int_value(crate::app::MAX_LEAGUE_PLAYERS as u64),
    );
    let with_league = |name: Pair, desc: Pair| sub(name, desc).add_sub_option(league_option());
    command(
        ("league", "liga"),
        (
            "Server leagues: create, join, standings, pairings",
            "Ligen des Servers: eröffnen, beitreten, Tabelle, Paarungen",
        ),
    )
    .add_option(create)
    .add_option(with_league(
        ("join", "beitreten"),
        (
            "Join a league before it starts",
            "Einer Liga vor ihrem Beginn beitreten",
        ),
    ))
    .add_option(with_league(
        ("leave", "verlassen"),
        (
            "Leave a league before it starts, or withdraw from it (asks first)",
            "Eine Liga vor dem Beginn verlassen oder dich zurückziehen (fragt erst)",
        ),
    ))
    .add_option(with_league(
        ("start", "starten"),
        (
            "Start a league now instead of at its date (Manage Server)",
            "Eine Liga jetzt statt zum Termin beginnen (Server verwalten)",
        ),
    ))
    .add_option(with_league(
        ("standings", "tabelle"),
        (
            "The standings: points, Sonneborn-Berger, direct encounter",
            "Die Tabelle: Punkte, Sonneborn-Berger, direkter Vergleich",
        ),
    ))
    .add_option(
        with_league(
            ("pairings", "paarungen"),
            ("The pairings of a round", "Die Paarungen einer Runde"),
        )
        .add_sub_option(
            option(
                CommandOptionType::Integer,
                ("round", "runde"),
                (
                    "Which round (default: the current one)",
                    "Welche Runde (sonst die laufende)",
                ),
            )
            .min_int_value(1),
        ),
    )
    .add_option(sub(
        ("list", "liste"),
        ("The leagues of this server", "Die Ligen dieses Servers"),
    ))
}

fn variant_option() -> CreateCommandOption {
    choices(
        option(
            CommandOptionType::String,
            ("variant", "variante"),
            ("Standard shogi or minishogi", "Shogi oder Minishogi"),
        ),
        &[
            ("standard", ("Shogi (9×9)", "Shogi (9×9)")),
            ("minishogi", ("Minishogi (5×5)", "Minishogi (5×5)")),
        ],
    )
}

fn handicap_option(desc: Pair) -> CreateCommandOption {
    let mut handicap = option(CommandOptionType::String, ("handicap", "vorgabe"), desc);
    for h in Handicap::ALL {
        handicap = handicap.add_string_choice_localized(
            handicap_label(h, Lang::En),
            handicap_name(h),
            [("de", handicap_label(h, Lang::De))],
        );
    }
    handicap
}

fn color_option() -> CreateCommandOption {
    choices(
        option(
            CommandOptionType::String,
            ("color", "farbe"),
            ("Your side", "Deine Seite"),
        ),
        &[
            ("sente", ("Sente (moves first)", "Sente (zieht zuerst)")),
            ("gote", ("Gote", "Gote")),
            ("random", ("Furigoma (random)", "Furigoma (zufällig)")),
        ],
    )
}

fn challenge() -> CreateCommand {
    let member = option(
        CommandOptionType::User,
        ("member", "mitglied"),
        (
            "Whom to challenge (leave empty for an open challenge)",
            "Wen du herausforderst (leer: offene Herausforderung)",
        ),
    );
    let variant = variant_option();
    let handicap = handicap_option((
        "Pieces the stronger player (Gote) removes",
        "Figuren, die der Stärkere (Gote) vorgibt",
    ));
    let rule = choices(
        option(
            CommandOptionType::String,
            ("rule", "regel"),
            ("Entering-king rule", "Regel für den eingezogenen König"),
        ),
        &[
            (
                "declaration27",
                ("Declaration (27 points)", "Erklärung (27 Punkte)"),
            ),
            ("counting24", ("Counting (24 points)", "Zählen (24 Punkte)")),
            ("try", ("Try rule", "Try-Regel")),
        ],
    );
    let days = days_option(("Days per move", "Tage pro Zug"));
    let rated = option(
        CommandOptionType::Boolean,
        ("rated", "gewertet"),
        (
            "Rated game (even 9×9 games only)",
            "Gewertete Partie (nur 9×9 ohne Vorgabe)",
        ),
    );
    let color = color_option();
    let stake = option(
        CommandOptionType::Integer,
        ("stake", "einsatz"),
        (
            "Taler each player puts in; the winner takes the pot (rated games)",
            "Taler, die jeder einsetzt; der Sieger bekommt alles (gewertete Partien)",
        ),
    )
    .min_int_value(1)
    .max_int_value(crate::app::MAX_STAKE as u64);
    let sennichite = option(
        CommandOptionType::Boolean,
        ("sennichite", "sennichite"),
        (
            "On sennichite, replay at once with colours swapped (professional rule)",
            "Bei Sennichite sofort neu mit getauschten Farben (Profiregel)",
        ),
    );
    command(
        ("challenge", "herausfordern"),
        (
            "Challenge a member to a correspondence game",
            "Fordere ein Mitglied zu einer Fernpartie heraus",
        ),
    )
    .add_option(member)
    .add_option(variant)
    .add_option(handicap)
    .add_option(rule)
    .add_option(days)
    .add_option(rated)
    .add_option(color)
    .add_option(stake)
    .add_option(sennichite)
}

fn play() -> CreateCommand {
    let level = choices(
        option(
            CommandOptionType::String,
            ("level", "stufe"),
            (
                "How strong the computer plays",
                "Wie stark der Computer spielt",
            ),
        ),
        &[
            ("beginner", ("Beginner", "Anfänger")),
            ("easy", ("Easy", "Leicht")),
            ("medium", ("Medium", "Mittel")),
            (
                "strong",
                ("Strong (thinks about 1.5 s)", "Stark (denkt etwa 1,5 s)"),
            ),
            (
                "ladder",
                (
                    "Handicap ladder against Strong (10 kyu to 1 dan)",
                    "Vorgabeleiter gegen Stark (10. Kyu bis 1. Dan)",
                ),
            ),
        ],
    )
    .required(true);
    let variant = variant_option();
    let handicap = handicap_option((
        "Pieces the computer (Gote) gives you",
        "Figuren, die dir der Computer (Gote) vorgibt",
    ));
    let color = color_option();
    command(
        ("play", "spielen"),
        (
            "Play the computer (unrated, takebacks allowed)",
            "Spiele gegen den Computer (ungewertet, Zurücknahmen erlaubt)",
        ),
    )
    .add_option(level)
    .add_option(variant)
    .add_option(handicap)
    .add_option(color)
}

fn puzzle() -> CreateCommand {
    let mode = choices(
        option(
            CommandOptionType::String,
            ("mode", "modus"),
            (
                "A random puzzle (default), today's puzzle, today's solvers or your streak",
                "Zufälliges Problem (Standard), Tagesproblem, heutige Löser oder deine Serie",
            ),
        ),
        &[
            ("random", ("Random puzzle", "Zufälliges Problem")),
            (
                "daily",
                (
                    "Today's puzzle (same for everyone)",
                    "Tagesproblem (für alle gleich)",
                ),
            ),
            (
                "list",
                (
                    "Who solved today's puzzle",
                    "Wer das Tagesproblem gelöst hat",
                ),
            ),
            ("streak", ("My streak", "Meine Serie")),
        ],
    );
    let mut plies = option(
        CommandOptionType::Integer,
        ("plies", "halbzuege"),
        (
            "Mate in how many plies (random puzzles)",
            "Matt in wie vielen Halbzügen (Zufallsprobleme)",
        ),
    );
    for n in [1, 3, 5] {
        plies = plies.add_int_choice_localized(
            format!("Mate in {n}"),
            n,
            [("de", format!("Matt in {n}"))],
        );
    }
    command(
        ("puzzle", "problem"),
        (
            "Solve a tsume puzzle: every move must check; answer with /move",
            "Löse ein Tsume-Problem: jeder Zug muss Schach bieten; antworte mit /zug",
        ),
    )
    .add_option(mode)
    .add_option(plies)
}

fn learn() -> CreateCommand {
    command(
        ("learn", "lernen"),
        (
            "Learn shogi: the pieces, promotion, drops, a first mate, then a minishogi game",
            "Lerne Shogi: die Figuren, Beförderung, Einsetzen, ein erstes Matt, dann Minishogi",
        ),
    )
    .add_option(
        option(
            CommandOptionType::String,
            ("move", "zug"),
            (
                "Your answer to the current lesson (pick from the list)",
                "Deine Antwort auf die aktuelle Lektion (aus der Liste wählen)",
            ),
        )
        .set_autocomplete(true)
        .max_length(100),
    )
    .add_option(
        option(
            CommandOptionType::Integer,
            ("lesson", "lektion"),
            (
                "Go to this lesson (to repeat or skip)",
                "Zu dieser Lektion gehen (wiederholen oder überspringen)",
            ),
        )
        .min_int_value(1)
        .max_int_value(crate::app::LESSONS as u64),
    )
}

fn game_command(name: Pair, desc: Pair) -> CreateCommand {
    command(name, desc).add_option(game_option())
}

/// Every command, in registration order.
#[must_use]
pub fn all() -> Vec<CreateCommand> {
    let mv = command(
        ("move", "zug"),
        (
            "Play a move in your game or puzzle",
            "Spiele einen Zug in deiner Partie oder deinem Problem",
        ),
    )
    .add_option(
        option(
            CommandOptionType::String,
            ("move", "zug"),
            (
                "Your move, e.g. 7g7f, P-7f or ７六歩 (pick from the list)",
                "Dein Zug, z. B. 7g7f, P-7f oder ７六歩 (aus der Liste wählen)",
            ),
        )
        .required(true)
        .set_autocomplete(true)
        .max_length(100),
    )
    .add_option(game_option());
    let export = command(
        ("export", "exportieren"),
        (
            "Download the game record (KIF, CSA, SFEN) or an animated GIF",
            "Lade die Partie herunter (KIF, CSA, SFEN) oder als animiertes GIF",
        ),
    )
    .add_option(choices(
        option(
            CommandOptionType::String,
            ("format", "format"),
            ("Record format", "Format der Partienotation"),
        ),
        &[
            ("kif", ("KIF", "KIF")),
            ("csa", ("CSA", "CSA")),
            ("sfen", ("SFEN + USI moves", "SFEN + USI-Züge")),
            (
                "gif",
                ("Animated GIF of the game", "Animiertes GIF der Partie"),
            ),
        ],
    ))
    .add_option(game_option());
    let settings = command(
        ("settings", "einstellungen"),
        (
            "Your notation, board style, language and DMs",
            "Deine Notation, Brettstil, Sprache und DMs",
        ),
    )
    .add_option(setting(
        ("notation", "notation"),
        ("How moves are written", "Wie Züge geschrieben werden"),
    ))
    .add_option(setting(("style", "stil"), ("Piece style", "Figurenstil")))
    .add_option(setting(
        ("theme", "thema"),
        ("Board colours", "Brettfarben"),
    ))
    .add_option(setting(
        ("orientation", "ausrichtung"),
        (
            "Which side is at the bottom of boards only you see",
            "Welche Seite unten ist auf Brettern nur für dich",
        ),
    ))
    .add_option(setting(
        ("language", "sprache"),
        ("Language of the bot's answers", "Sprache der Antworten"),
    ))
    .add_option(option(
        CommandOptionType::Boolean,
        ("dms", "dms"),
        (
            "Direct message when it is your turn",
            "Direktnachricht, wenn du am Zug bist",
        ),
    ))
    .add_option(setting(
        ("danger", "gefahr"),
        (
            "Red outlines on your hanging pieces (auto: against Beginner and Easy, in lessons)",
            "Rote Umrisse um ungedeckte bedrohte Steine (auto: gegen Anfänger und Leicht, in Lektionen)",
        ),
    ))
    .add_option(option(
        CommandOptionType::Boolean,
        ("dots", "punkte"),
        (
            "Dots on the pieces showing how they move",
            "Punkte auf den Steinen, die zeigen, wie sie ziehen",
        ),
    ))
    .add_option(option(
        CommandOptionType::Boolean,
        ("names", "namen"),
        (
            "Small piece names under the symbols",
            "Kleine Steinnamen unter den Symbolen",
        ),
    ));
    let stats = command(
        ("stats", "statistik"),
        (
            "Rating and record of a player",
            "Wertung und Bilanz eines Spielers",
        ),
    )
    .add_option(option(
        CommandOptionType::User,
        ("member", "mitglied"),
        (
            "Whose stats (default: yours)",
            "Wessen Statistik (sonst deine)",
        ),
    ));
    vec![
        challenge(),
        play(),
        mv,
        game_command(
            ("hint", "tipp"),
            (
                "The engine's best move with a reason (not in rated games)",
                "Der beste Zug der Engine mit Begründung (nicht in gewerteten Partien)",
            ),
        ),
        command(
            ("danger", "gefahr"),
            (
                "Privately: your hanging pieces, and where a piece can go safely",
                "Nur für dich: deine ungedeckten Steine und wohin ein Stein sicher kann",
            ),
        )
        .add_option(
            option(
                CommandOptionType::String,
                ("piece", "stein"),
                (
                    "The piece to check: its square (7g) or in hand (B*); pick from the list",
                    "Der Stein: sein Feld (7g) oder aus der Hand (B*); aus der Liste wählen",
                ),
            )
            .set_autocomplete(true)
            .max_length(10),
        )
        .add_option(game_option()),
        game_command(
            ("analyze", "analyse"),
            (
                "Evaluation graph and turning points of a game",
                "Bewertungsgrafik und Wendepunkte einer Partie",
            ),
        ),
        game_command(
            ("replay", "nachspielen"),
            (
                "Step through a game move by move",
                "Spiele eine Partie Zug für Zug nach",
            ),
        )
        .add_option(
            option(
                CommandOptionType::Integer,
                ("ply", "halbzug"),
                (
                    "Start at this ply (default: the last)",
                    "Bei diesem Halbzug beginnen (sonst beim letzten)",
                ),
            )
            .min_int_value(0)
            .max_int_value(10_000),
        ),
        game_command(
            ("board", "brett"),
            (
                "Show the board of your game",
                "Zeige das Brett deiner Partie",
            ),
        ),
        command(
            ("games", "partien"),
            (
                "Your running games, whose turn and deadlines",
                "Deine laufenden Partien, wer am Zug ist, Fristen",
            ),
        )
        .add_option(option(
            CommandOptionType::Boolean,
            ("server", "server"),
            (
                "All live games of this server, with links to their threads",
                "Alle laufenden Partien dieses Servers, mit Links zu ihren Threads",
            ),
        )),
        command(
            ("follow", "folgen"),
            (
                "Get a game's or a member's moves by direct message (without options: what you follow)",
                "Züge einer Partie oder eines Mitglieds als Direktnachricht (ohne Optionen: wem du folgst)",
            ),
        )
        .add_option(option(
            CommandOptionType::Integer,
            ("game", "partie"),
            ("The game's number (#12)", "Die Nummer der Partie (#12)"),
        ))
        .add_option(option(
            CommandOptionType::User,
            ("member", "mitglied"),
            ("Whose games", "Wessen Partien"),
        ))
        .add_option(option(
            CommandOptionType::Boolean,
            ("stop", "stopp"),
            (
                "Stop following it (without game or member: everything)",
                "Nicht mehr folgen (ohne Partie oder Mitglied: allem)",
            ),
        )),
        game_command(
            ("resign", "aufgeben"),
            ("Resign the game", "Gib die Partie auf"),
        ),
        game_command(
            ("abort", "abbrechen"),
            (
                "Abort the game (before move 10, no result)",
                "Brich die Partie ab (vor Zug 10, ohne Wertung)",
            ),
        ),
        game_command(
            ("takeback", "zuruecknehmen"),
            (
                "Ask to take back your last move (friendly games)",
                "Bitte, deinen letzten Zug zurückzunehmen (freie Partien)",
            ),
        ),
        game_command(
            ("declare", "erklaeren"),
            (
                "Declare an entering-king win (27 points)",
                "Erkläre den Sieg durch Einzug (27 Punkte)",
            ),
        ),
        game_command(
            ("count", "zaehlen"),
            (
                "Ask to count or agree to count (24 points)",
                "Zählen vorschlagen oder zustimmen (24 Punkte)",
            ),
        ),
        puzzle(),
        learn(),
        export,
        settings,
        stats,
        command(
            ("leaderboard", "rangliste"),
            (
                "The best rated players here",
                "Die bestbewerteten Spieler hier",
            ),
        )
        .add_option(choices(
            option(
                CommandOptionType::String,
                ("by", "nach"),
                (
                    "Rank by rating, points or Taler",
                    "Nach Wertung, Punkten oder Talern",
                ),
            ),
            &[
                ("elo", ("Rating (Elo)", "Wertung (Elo)")),
                ("points", ("Points", "Punkte")),
                ("taler", ("Taler", "Taler")),
            ],
        )),
        server(),
        league(),
        command(
            ("privacy", "datenschutz"),
            (
                "What komadai stores about you, and erasing it",
                "Was komadai über dich speichert, und es löschen",
            ),
        ),
        command(
            ("premove", "vorauszug"),
            (
                "Privately: answers prepared for your opponent's next moves",
                "Nur für dich: vorbereitete Antworten auf die nächsten Züge deines Gegners",
            ),
        )
        .add_option(option(
            CommandOptionType::String,
            ("line", "zeile"),
            (
                "Their move, your answer, and so on: 8c8d 2f2e 8d8e 2e2d (without it: your lines)",
                "Sein Zug, deine Antwort und so weiter: 8c8d 2f2e 8d8e 2e2d (ohne: deine Zeilen)",
            ),
        ))
        .add_option(option(
            CommandOptionType::Integer,
            ("clear", "loeschen"),
            (
                "Delete this line (0: all of them)",
                "Diese Zeile löschen (0: alle)",
            ),
        ))
        .add_option(game_option()),
        command(
            ("vacation", "urlaub"),
            (
                "Pause the deadlines of all your games while you are away (a yearly allowance)",
                "Die Fristen all deiner Partien anhalten, solange du weg bist (ein Jahreskontingent)",
            ),
        )
        .add_option(choices(
            option(
                CommandOptionType::String,
                ("state", "zustand"),
                (
                    "On or off (without it: your vacation days this year)",
                    "An oder aus (ohne: deine Urlaubstage in diesem Jahr)",
                ),
            ),
            &[("on", ("On", "An")), ("off", ("Off", "Aus"))],
        )),
        command(
            ("help", "hilfe"),
            (
                "Every command in a sentence, and how to write moves",
                "Alle Befehle in einem Satz und wie man Züge schreibt",
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid_name(s: &str) -> bool {
        (1..=32).contains(&s.chars().count())
            && s.chars()
                .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
            && s.to_lowercase() == s
    }

    #[test]
    fn every_command_is_valid_and_localised() {
        let json = serde_json::to_value(all()).unwrap_or_default();
        let list = json.as_array().cloned().unwrap_or_default();
        assert_eq!(list.len(), 27);
        for c in &list {
            let name = c["name"].as_str().unwrap_or("");
            assert!(valid_name(name), "{name}");
            assert!(
                valid_name(c["name_localizations"]["de"].as_str().unwrap_or("")),
                "{c}"
            );
            assert!(c["description_localizations"]["de"].is_string(), "{name}");
            let options = c["options"].as_array().cloned().unwrap_or_default();
            assert!(options.len() <= 25);
            let subs: Vec<serde_json::Value> = options
                .iter()
                .flat_map(|o| o["options"].as_array().cloned().unwrap_or_default())
                .collect();
            for o in options.iter().chain(&subs) {
                assert!(valid_name(o["name"].as_str().unwrap_or("")), "{o}");
                assert!(o["name_localizations"]["de"].is_string(), "{o}");
                let choices = o["choices"].as_array().cloned().unwrap_or_default();
                assert!(choices.len() <= 25);
                for ch in &choices {
                    assert!(ch["name_localizations"]["de"].is_string(), "{ch}");
                }
            }
        }
    }
}
