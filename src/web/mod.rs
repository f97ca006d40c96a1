//! The read-only game page (issue #20): one page per game at an
//! unguessable address (`/g/<token>`, see [`crate::app::page_token`]), with
//! the board of every ply, the move list in a chosen notation, step-through
//! controls, the evaluation graph once the game was analysed, and KIF/CSA
//! downloads.
//!
//! This module answers a request as data ([`respond`]: method, path, query,
//! `Accept-Language` in; status, headers, body out), so routing and the
//! HTML are tested without a socket; [`serve`] is the hyper glue, used by
//! `komadai web` and by the HTTP server of `serve` (`discord::web`).
//!
//! Boards are the bot's own PNG pictures, one URL per ply
//! (`/g/<token>/board/<ply>.png`): the page looks exactly like the boards
//! in Discord, and no second drawing of the pieces has to be kept in step.
//! The script only swaps the picture, the move line and the SFEN shown.
//!
//! What leaves: the players' names as stored, the moves, the result and
//! the analysis. No Discord ids, no server, no deadlines. Unknown or
//! malformed addresses are a bare 404; methods other than GET and HEAD 405.

pub mod serve;

use std::fmt::Write as _;
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use crate::app::{App, GamePage};
use crate::i18n::{notation_label, page_words, Lang, Localize};
use crate::notation::{format_move, Style};
use crate::render::{Marks, RenderOptions};
use crate::shogi::Color;

pub use serve::{bind, run, WebArgs};

/// A request as the page sees it.
#[derive(Clone, Copy, Debug, Default)]
pub struct PageRequest<'a> {
    /// `GET`, `HEAD`, ...
    pub method: &'a str,
    /// The path, without the query.
    pub path: &'a str,
    /// The query string, without `?`.
    pub query: Option<&'a str>,
    /// The `Accept-Language` header.
    pub accept_language: Option<&'a str>,
}

/// An answer: status, headers and body (empty for HEAD, whose
/// `Content-Length` is still that of the GET).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageResponse {
    /// HTTP status.
    pub status: u16,
    /// Headers (name, value).
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl PageResponse {
    fn plain(status: u16, text: &str) -> PageResponse {
        PageResponse {
            status,
            headers: vec![
                ("content-type", "text/plain; charset=utf-8".into()),
                ("cache-control", "no-store".into()),
            ],
            body: text.as_bytes().to_vec(),
        }
    }

    fn not_found() -> PageResponse {
        PageResponse::plain(404, "not found")
    }

    /// The value of header `name`, if set.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Whether `path` belongs to the game pages (the HTTP server of `serve`
/// hands these to [`respond`]).
#[must_use]
pub fn is_page_path(path: &str) -> bool {
    path.starts_with("/g/")
}

/// What a page path asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Html,
    Board(usize),
    Graph,
    Kif,
    Csa,
}

/// Splits `/g/<token>[/<part>]`; `None` for anything else.
fn parse_path(path: &str) -> Option<(&str, Part)> {
    let rest = path.strip_prefix("/g/")?;
    let (token, part) = match rest.split_once('/') {
        None => (rest, Part::Html),
        Some((token, "")) => (token, Part::Html),
        Some((token, "graph.png")) => (token, Part::Graph),
        Some((token, "game.kifu")) => (token, Part::Kif),
        Some((token, "game.csa")) => (token, Part::Csa),
        Some((token, board)) => {
            let n = board.strip_prefix("board/")?.strip_suffix(".png")?;
            if n.is_empty() || n.len() > 4 || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (token, Part::Board(n.parse().ok()?))
        }
    };
    (!token.is_empty()).then_some((token, part))
}

/// The value of `key` in a query string (no percent-decoding: the page's
/// own parameters are plain words and numbers).
fn query_value<'a>(query: Option<&'a str>, key: &str) -> Option<&'a str> {
    query?
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

/// The page's language: `?lang=en|de`, else the first of English or German
/// in `Accept-Language` by preference, else English.
fn language(query: Option<&str>, accept: Option<&str>) -> Lang {
    match query_value(query, "lang") {
        Some("de") => return Lang::De,
        Some("en") => return Lang::En,
        _ => {}
    }
    let Some(accept) = accept else {
        return Lang::En;
    };
    let mut best: Option<(f32, Lang)> = None;
    for entry in accept.split(',') {
        let mut parts = entry.split(';');
        let tag = parts.next().unwrap_or("").trim();
        let q = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        let primary = tag.split(['-', '_']).next().unwrap_or("");
        let lang = if primary.eq_ignore_ascii_case("de") {
            Lang::De
        } else if primary.eq_ignore_ascii_case("en") {
            Lang::En
        } else {
            continue;
        };
        if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
            best = Some((q, lang));
        }
    }
    best.map_or(Lang::En, |(_, l)| l)
}

/// The notation: `?n=western|japanese|usi` (and `western-numeric`), else
/// the default of the page's language. Both languages default to Western,
/// the bot's own default notation (`Style::default`).
fn notation(query: Option<&str>, lang: Lang) -> Style {
    query_value(query, "n")
        .and_then(Style::from_name)
        .unwrap_or(match lang {
            Lang::En | Lang::De => Style::default(),
        })
}

/// Answers one request for a game page. Blocking (reads the store, draws
/// PNGs): run it off the async runtime.
#[must_use]
pub fn respond(app: &App, req: &PageRequest<'_>) -> PageResponse {
    let head = req.method == "HEAD";
    if req.method != "GET" && !head {
        let mut r = PageResponse::plain(405, "method not allowed");
        r.headers.push(("allow", "GET, HEAD".into()));
        return r;
    }
    let mut r = answer(app, req);
    r.headers.push(("content-length", r.body.len().to_string()));
    r.headers.push(("x-content-type-options", "nosniff".into()));
    r.headers.push(("referrer-policy", "no-referrer".into()));
    r.headers.push(("x-robots-tag", "noindex, nofollow".into()));
    if head {
        r.body.clear();
    }
    r
}

fn answer(app: &App, req: &PageRequest<'_>) -> PageResponse {
    let Some((token, part)) = parse_path(req.path) else {
        return PageResponse::not_found();
    };
    let page = match app.game_page(token) {
        Ok(Some(p)) => p,
        Ok(None) => return PageResponse::not_found(),
        Err(e) => {
            tracing::warn!(error = %e, "reading a game page failed");
            return PageResponse::plain(500, "internal error");
        }
    };
    // A finished game's page only changes when it is analysed (the HTML
    // then links the graph): an hour; its pictures and records never.
    // A live game's answers are never stored.
    let (html_cache, fixed_cache) = if page.finished {
        ("public, max-age=3600", "public, max-age=604800, immutable")
    } else {
        ("no-store", "no-store")
    };
    let lang = language(req.query, req.accept_language);
    let ok = |content_type: &str, cache: &str, body: Vec<u8>| PageResponse {
        status: 200,
        headers: vec![
            ("content-type", content_type.to_string()),
            ("cache-control", cache.to_string()),
        ],
        body,
    };
    match part {
        Part::Html => {
            let style = notation(req.query, lang);
            let ply = query_value(req.query, "ply").and_then(|p| p.parse().ok());
            let mut r = ok(
                "text/html; charset=utf-8",
                html_cache,
                html(&page, token, lang, style, ply).into_bytes(),
            );
            r.headers.push(("content-security-policy", csp()));
            r.headers.push(("vary", "Accept-Language".into()));
            r
        }
        Part::Board(ply) if ply <= page.moves.len() => {
            ok("image/png", fixed_cache, board_png(&page, ply, lang))
        }
        Part::Board(_) => PageResponse::not_found(),
        Part::Graph => match &page.analysis {
            Some(a) => ok(
                "image/png",
                html_cache,
                crate::render::eval_graph_png(
                    &a.evals,
                    a.end,
                    &a.turning,
                    crate::render::Theme::Light,
                ),
            ),
            None => PageResponse::not_found(),
        },
        Part::Kif | Part::Csa => {
            let (text, ext) = if part == Part::Kif {
                (&page.kif, "kifu")
            } else {
                (&page.csa, "csa")
            };
            match text {
                Some(t) => {
                    let mut r = ok(
                        "text/plain; charset=utf-8",
                        fixed_cache,
                        t.clone().into_bytes(),
                    );
                    r.headers.push((
                        "content-disposition",
                        format!("attachment; filename=\"komadai-{}.{ext}\"", page.id),
                    ));
                    r
                }
                None => PageResponse::not_found(),
            }
        }
    }
}

/// The board after `ply` plies, as the bot draws it (Sente at the bottom,
/// as in public posts; the last move marked; mate written on it).
fn board_png(page: &GamePage, ply: usize, lang: Lang) -> Vec<u8> {
    let mut pos = page.start.clone();
    for &m in &page.moves[..ply] {
        pos.play_unchecked(m);
    }
    let last = ply.checked_sub(1).map(|i| page.moves[i]);
    let marks = Marks {
        mate: pos.is_checkmate(),
        ..Marks::default()
    };
    let opts = RenderOptions {
        lang,
        ..RenderOptions::default()
    };
    crate::render::board_png_marked(&pos, last, &opts, &marks)
}

/// A step button's picture: drawn inline, since the arrow characters
/// (⏮ ⏭) are missing from many fonts.
fn icon(path: &str) -> String {
    format!(
        "<svg viewBox=\"0 0 16 16\" width=\"18\" height=\"18\" aria-hidden=\"true\"><path d=\"{path}\"/></svg>"
    )
}

/// Text for HTML: `&`, `<`, `>`, `"` and `'` escaped.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON for a `<script type="application/json">` block: no `<` can close it.
fn script_json(v: &serde_json::Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The Content-Security-Policy of the HTML: nothing from elsewhere; only
/// the page's own style and script (by hash) and its own pictures.
fn csp() -> String {
    static CSP: OnceLock<String> = OnceLock::new();
    CSP.get_or_init(|| {
        let hash = |s: &str| base64(&Sha256::digest(s.as_bytes()));
        format!(
            "default-src 'none'; img-src 'self'; style-src 'sha256-{}'; script-src 'sha256-{}'; \
             base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            hash(STYLE),
            hash(SCRIPT)
        )
    })
    .clone()
}

/// Standard base64 with padding (for the CSP hashes).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(A[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The moves of `page` written in `style`, with the side's mark for the
/// styles that have none of their own (Japanese writes ▲/△ itself).
#[must_use]
pub fn move_texts(page: &GamePage, style: Style) -> Vec<String> {
    let mut pos = page.start.clone();
    let mut out = Vec::with_capacity(page.moves.len());
    for (i, &m) in page.moves.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| page.moves[j]);
        let text = format_move(&pos, m, style, prev);
        let mark = match pos.side_to_move() {
            Color::Sente => "☗",
            Color::Gote => "☖",
        };
        out.push(if style == Style::Japanese {
            text
        } else {
            format!("{mark}{text}")
        });
        pos.play_unchecked(m);
    }
    out
}

/// The page's HTML, showing ply `ply` (default: the last) before the
/// script takes over.
#[must_use]
pub fn html(page: &GamePage, token: &str, lang: Lang, style: Style, ply: Option<usize>) -> String {
    let w = page_words(lang);
    let total = page.moves.len();
    let ply = ply.unwrap_or(total).min(total);
    let sfens: Vec<String> = page.positions().iter().map(|p| p.to_sfen()).collect();
    let moves = move_texts(page, style);
    let tok = esc(token);
    let lang_code = match lang {
        Lang::En => "en",
        Lang::De => "de",
    };
    let line = |p: usize| match p.checked_sub(1) {
        Some(i) => format!("{}. {}", p, moves[i]),
        None => w.start.to_string(),
    };
    let title = format!(
        "{} #{}: ☗ {} {} ☖ {}",
        w.game, page.id, page.sente, w.versus, page.gote
    );
    let mut h = String::with_capacity(8192 + 64 * total);
    let _ = write!(
        h,
        "<!doctype html>\n<html lang=\"{lang_code}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"robots\" content=\"noindex, nofollow\">\n\
         <title>{} — komadai</title>\n<style>{STYLE}</style>\n</head>\n<body data-ply=\"{ply}\">\n",
        esc(&title)
    );
    let _ = write!(
        h,
        "<header>\n<h1><span class=\"game\">{} #{}</span> <span class=\"players\">☗&nbsp;{} <span class=\"vs\">{}</span> ☖&nbsp;{}</span></h1>\n",
        esc(w.game),
        page.id,
        esc(&page.sente),
        esc(w.versus),
        esc(&page.gote)
    );
    let status = match &page.ending {
        Some(m) => m.localize(lang),
        None if page.finished => String::new(),
        None => w.live.to_string(),
    };
    let _ = writeln!(h, "<p id=\"status\">{}</p>\n</header>", esc(&status));
    let _ = write!(h, "<main>\n<section class=\"board\">\n");
    let _ = writeln!(
        h,
        "<img id=\"board\" src=\"{tok}/board/{ply}.png\" alt=\"{} {ply}\" width=\"{}\" height=\"{}\">",
        esc(w.board_alt),
        crate::render::image_size(page.start.variant()).0,
        crate::render::image_size(page.start.variant()).1,
    );
    let _ = writeln!(
        h,
        "<div class=\"controls\">\
         <button type=\"button\" id=\"first\" title=\"{}\" aria-label=\"{}\">{}</button>\
         <button type=\"button\" id=\"prev\" title=\"{}\" aria-label=\"{}\">{}</button>\
         <span id=\"plyinfo\">{} {ply} / {total}</span>\
         <button type=\"button\" id=\"next\" title=\"{}\" aria-label=\"{}\">{}</button>\
         <button type=\"button\" id=\"last\" title=\"{}\" aria-label=\"{}\">{}</button>\
         </div>",
        esc(w.first),
        esc(w.first),
        icon("M3 2h2v12H3zM14 2v12L6 8z"),
        esc(w.prev),
        esc(w.prev),
        icon("M12 2v12L4 8z"),
        esc(w.ply),
        esc(w.next),
        esc(w.next),
        icon("M4 2v12l8-6z"),
        esc(w.last),
        esc(w.last),
        icon("M11 2h2v12h-2zM2 2v12l8-6z"),
    );
    let _ = writeln!(h, "<p id=\"current\">{}</p>", esc(&line(ply)));
    let _ = writeln!(
        h,
        "<p class=\"sfen\">SFEN <code id=\"sfen\">{}</code></p>",
        esc(&sfens[ply])
    );
    let _ = writeln!(h, "<p class=\"keys\">{}</p>\n</section>", esc(w.keys));
    // The move list, the notation switch and the downloads.
    let _ = write!(
        h,
        "<section class=\"side\">\n<h2>{}</h2>\n<nav class=\"notation\">{}:",
        esc(w.moves),
        esc(w.notation)
    );
    for s in [Style::Western, Style::Japanese, Style::Usi] {
        let label = esc(notation_label(s, lang));
        if s == style {
            let _ = write!(h, " <strong>{label}</strong>");
        } else {
            let _ = write!(
                h,
                " <a href=\"{tok}?n={}&amp;lang={lang_code}\">{label}</a>",
                s.name()
            );
        }
    }
    h.push_str("</nav>\n");
    if total == 0 {
        let _ = writeln!(h, "<p>{}</p>", esc(w.no_moves));
    }
    h.push_str("<ol id=\"moves\">\n");
    let _ = writeln!(
        h,
        "<li value=\"0\" data-ply=\"0\"{}><a href=\"#ply=0\"><span class=\"n\">0</span> {}</a></li>",
        if ply == 0 { " class=\"on\"" } else { "" },
        esc(w.start)
    );
    for (i, m) in moves.iter().enumerate() {
        let p = i + 1;
        let _ = writeln!(
            h,
            "<li value=\"{p}\" data-ply=\"{p}\"{}><a href=\"#ply={p}\"><span class=\"n\">{p}</span> {}</a></li>",
            if p == ply { " class=\"on\"" } else { "" },
            esc(m)
        );
    }
    h.push_str("</ol>\n");
    let _ = write!(h, "<h2>{}</h2>\n<p class=\"downloads\">", esc(w.download));
    match (&page.kif, &page.csa) {
        (None, None) => {
            let _ = write!(h, "{}", esc(w.no_record));
        }
        (kif, csa) => {
            if kif.is_some() {
                let _ = write!(
                    h,
                    "<a href=\"{tok}/game.kifu\" download=\"komadai-{}.kifu\">KIF</a> ",
                    page.id
                );
            }
            if csa.is_some() {
                let _ = write!(
                    h,
                    "<a href=\"{tok}/game.csa\" download=\"komadai-{}.csa\">CSA</a>",
                    page.id
                );
            }
        }
    }
    h.push_str("</p>\n</section>\n");
    if page.analysis.is_some() {
        let _ = write!(
            h,
            "<section class=\"graph\">\n<h2>{}</h2>\n<img id=\"graph\" src=\"{tok}/graph.png\" alt=\"{}\" width=\"647\" height=\"230\">\n</section>\n",
            esc(w.graph),
            esc(w.graph_alt)
        );
    }
    h.push_str("</main>\n");
    let _ = writeln!(h, "<footer>{}</footer>", esc(w.footer));
    let data = serde_json::json!({
        "board": format!("{token}/board/"),
        "sfens": sfens,
        "lines": (0..=total).map(line).collect::<Vec<_>>(),
        "ply": w.ply,
        "alt": w.board_alt,
    });
    let _ = write!(
        h,
        "<script type=\"application/json\" id=\"data\">{}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        script_json(&data)
    );
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_paths_are_split_and_everything_else_refused() {
        assert_eq!(parse_path("/g/1-ab"), Some(("1-ab", Part::Html)));
        assert_eq!(parse_path("/g/1-ab/"), Some(("1-ab", Part::Html)));
        assert_eq!(
            parse_path("/g/1-ab/board/0.png"),
            Some(("1-ab", Part::Board(0)))
        );
        assert_eq!(
            parse_path("/g/1-ab/board/123.png"),
            Some(("1-ab", Part::Board(123)))
        );
        assert_eq!(parse_path("/g/1-ab/graph.png"), Some(("1-ab", Part::Graph)));
        assert_eq!(parse_path("/g/1-ab/game.kifu"), Some(("1-ab", Part::Kif)));
        assert_eq!(parse_path("/g/1-ab/game.csa"), Some(("1-ab", Part::Csa)));
        for bad in [
            "/g/",
            "/g//board/1.png",
            "/g/1-ab/board/.png",
            "/g/1-ab/board/-1.png",
            "/g/1-ab/board/99999.png",
            "/g/1-ab/board/1.gif",
            "/g/1-ab/other",
            "/g/1-ab/board/1.png/x",
            "/x/1-ab",
        ] {
            assert_eq!(parse_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_language_comes_from_the_query_then_accept_language() {
        assert_eq!(language(Some("lang=de"), Some("en")), Lang::De);
        assert_eq!(language(Some("n=usi&lang=en"), Some("de")), Lang::En);
        assert_eq!(language(None, Some("de-DE,de;q=0.9,en;q=0.8")), Lang::De);
        assert_eq!(language(None, Some("fr-FR, en;q=0.5, de;q=0.7")), Lang::De);
        assert_eq!(language(None, Some("fr, en-GB;q=0.9")), Lang::En);
        assert_eq!(language(None, Some("de;q=0")), Lang::En);
        assert_eq!(language(None, Some("fr")), Lang::En);
        assert_eq!(language(Some("lang=xx"), None), Lang::En);
    }

    #[test]
    fn the_notation_comes_from_the_query() {
        assert_eq!(notation(Some("n=japanese"), Lang::En), Style::Japanese);
        assert_eq!(notation(Some("lang=de&n=usi"), Lang::De), Style::Usi);
        assert_eq!(notation(Some("n=western"), Lang::De), Style::Western);
        assert_eq!(notation(Some("n=nonsense"), Lang::De), Style::Western);
        assert_eq!(notation(None, Lang::En), Style::Western);
    }

    #[test]
    fn html_and_json_are_escaped() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let j = script_json(&serde_json::json!({"n": "</script><b>&"}));
        assert!(!j.contains('<') && !j.contains('>'));
        assert!(j.contains("\\u003c/script\\u003e"));
    }

    use std::sync::Arc;

    use crate::app::{Caller, ChallengeOptions, ManualClock, Msg, Place, SeededDice};
    use crate::store::Store;

    fn app() -> App {
        App::new(
            Store::open_in_memory().unwrap(),
            Arc::new(ManualClock::new(1_800_000_000)),
            Arc::new(SeededDice::new(1)),
        )
    }

    const PLACE: Place = Place {
        guild: Some(1),
        channel: Some(2),
    };

    /// A new game between Alice (Sente) and Bob: the message that started
    /// it, and its id.
    fn start(app: &App) -> (Msg, i64) {
        let alice = Caller::new(11, "Alice <script>", Lang::En);
        let bob = Caller::new(12, "Bob", Lang::En);
        let opts = ChallengeOptions {
            color: Some(Color::Sente),
            ..ChallengeOptions::default()
        };
        let r = app
            .challenge(&alice, Some((12, "Bob")), &opts, PLACE)
            .unwrap();
        let Msg::ChallengeMade { id, .. } = r.msg else {
            panic!("{:?}", r.msg)
        };
        let r = app.accept(&bob, id, PLACE).unwrap();
        (r.msg, r.board.unwrap().game_id)
    }

    /// An app with one live game between Alice (Sente) and Bob: 7g7f 3c3d 8h2b+.
    fn world() -> (App, i64) {
        let app = app();
        let (_, game) = start(&app);
        let alice = Caller::new(11, "Alice <script>", Lang::En);
        let bob = Caller::new(12, "Bob", Lang::En);
        for (who, mv) in [(&alice, "7g7f"), (&bob, "3c3d"), (&alice, "8h2b+")] {
            app.play_move(who, Some(game), mv, PLACE, None).unwrap();
        }
        (app, game)
    }

    #[test]
    fn a_new_game_links_its_page_only_when_a_public_url_is_set() {
        let (msg, _) = start(&app());
        assert!(matches!(msg, Msg::GameStarted { .. }), "{msg:?}");
        let linked = app().with_public_url(Some("https://shogi.example.org/".into()));
        let (msg, game) = start(&linked);
        let Msg::Both(first, link) = msg else {
            panic!("{msg:?}")
        };
        assert!(matches!(*first, Msg::GameStarted { .. }));
        let token = linked.page_token(game).unwrap();
        assert_eq!(
            *link,
            Msg::GamePage {
                url: format!("https://shogi.example.org/g/{token}")
            }
        );
        assert_eq!(
            link.localize(Lang::De),
            format!("Spielseite: <https://shogi.example.org/g/{token}>")
        );
        // An empty setting is no setting.
        let (msg, _) = start(&app().with_public_url(Some(" ".into())));
        assert!(matches!(msg, Msg::GameStarted { .. }));
    }

    fn get<'a>(path: &'a str, query: Option<&'a str>) -> PageRequest<'a> {
        PageRequest {
            method: "GET",
            path,
            query,
            accept_language: None,
        }
    }

    #[test]
    fn a_page_answers_at_its_token_only() {
        let (app, game) = world();
        let token = app.page_token(game).unwrap();
        let path = format!("/g/{token}");
        let r = respond(&app, &get(&path, None));
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        // A live game is never cached.
        assert_eq!(r.header("cache-control"), Some("no-store"));
        assert!(r
            .header("content-security-policy")
            .unwrap()
            .contains("default-src 'none'"));
        // Wrong tag, another game's id, malformed, unknown game: the same bare 404.
        let other = app.page_token(game + 1).unwrap();
        let wrong = format!("/g/{game}-{}", "0".repeat(32));
        let swapped = format!("/g/{}-{}", game + 1, &token[token.find('-').unwrap() + 1..]);
        for bad in [
            wrong.as_str(),
            swapped.as_str(),
            &format!("/g/{other}"),
            "/g/abc",
            "/g/1",
            &format!("/g/{token}/nothing"),
            &format!("/g/{token}/board/4.png"),
            &format!("/g/{token}/graph.png"),
        ] {
            let r = respond(&app, &get(bad, None));
            assert_eq!(
                (r.status, r.body.as_slice()),
                (404, &b"not found"[..]),
                "{bad}"
            );
        }
    }

    #[test]
    fn only_get_and_head_are_allowed_and_head_has_no_body() {
        let (app, game) = world();
        let path = format!("/g/{}/board/1.png", app.page_token(game).unwrap());
        let got = respond(&app, &get(&path, None));
        assert_eq!(got.status, 200);
        assert_eq!(got.header("content-type"), Some("image/png"));
        assert!(got.body.starts_with(b"\x89PNG"));
        let head = respond(
            &app,
            &PageRequest {
                method: "HEAD",
                ..get(&path, None)
            },
        );
        assert_eq!(head.status, 200);
        assert!(head.body.is_empty());
        assert_eq!(
            head.header("content-length"),
            Some(got.body.len().to_string().as_str())
        );
        for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
            for p in [path.as_str(), "/g/nonsense"] {
                let r = respond(
                    &app,
                    &PageRequest {
                        method,
                        ..get(p, None)
                    },
                );
                assert_eq!(r.status, 405, "{method} {p}");
                assert_eq!(r.header("allow"), Some("GET, HEAD"));
            }
        }
    }

    #[test]
    fn the_html_shows_moves_names_positions_and_downloads() {
        let (app, game) = world();
        let token = app.page_token(game).unwrap();
        let path = format!("/g/{token}");
        let body = |q: Option<&str>, accept: Option<&str>| {
            let r = respond(
                &app,
                &PageRequest {
                    accept_language: accept,
                    ..get(&path, q)
                },
            );
            String::from_utf8(r.body).unwrap()
        };
        let en = body(None, None);
        // Names as stored, escaped; no Discord ids.
        assert!(en.contains("Alice &lt;script&gt;"));
        assert!(!en.contains("Alice <script>"));
        assert!(!en.contains("\"11\"") && !en.contains(">11<") && !en.contains(" 11 "));
        // Western by default, the last ply shown.
        assert!(en.contains("<span class=\"n\">1</span> ☗P-7f") && en.contains("3. ☗Bx2b+"));
        assert!(en.contains("<body data-ply=\"3\">"));
        assert!(en.contains(&format!("src=\"{token}/board/3.png\"")));
        assert!(en.contains("lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"));
        assert!(en.contains(&format!("href=\"{token}/game.kifu\"")));
        assert!(en.contains(&format!("href=\"{token}/game.csa\"")));
        assert!(en.contains("In progress"));
        assert!(!en.contains("graph.png"));
        // The notation switch and the language.
        let ja = body(Some("n=japanese"), None);
        assert!(ja.contains("▲７六歩") && ja.contains("▲２二角成"));
        let usi = body(Some("n=usi&ply=1"), Some("de-DE,de;q=0.9"));
        assert!(usi.contains("☗7g7f") && usi.contains("<html lang=\"de\">"));
        assert!(usi.contains("Züge") && usi.contains("Halbzug 1 / 3"));
        assert!(usi.contains("<body data-ply=\"1\">"));
        // The downloads are the records.
        let kif = respond(&app, &get(&format!("{path}/game.kifu"), None));
        let text = String::from_utf8(kif.body).unwrap();
        assert!(
            text.contains("先手：Alice <script>") && text.contains("７六歩"),
            "{text}"
        );
        assert!(kif.headers.iter().any(|(n, v)| *n == "content-disposition"
            && v == &format!("attachment; filename=\"komadai-{game}.kifu\"")));
        let csa = respond(&app, &get(&format!("{path}/game.csa"), None));
        assert!(String::from_utf8(csa.body).unwrap().contains("+7776FU"));
    }

    #[test]
    fn a_finished_game_is_cacheable() {
        let (app, game) = world();
        let bob = Caller::new(12, "Bob", Lang::En);
        let place = Place::default();
        app.game_action(&bob, Some(game), crate::app::Action::ResignConfirmed, place)
            .unwrap();
        let token = app.page_token(game).unwrap();
        let r = respond(&app, &get(&format!("/g/{token}"), Some("lang=de")));
        assert_eq!(r.header("cache-control"), Some("public, max-age=3600"));
        let html = String::from_utf8(r.body).unwrap();
        assert!(html.contains("Partie #1 ist beendet"), "{html}");
        let png = respond(&app, &get(&format!("/g/{token}/board/0.png"), None));
        assert!(png.header("cache-control").unwrap().contains("immutable"));
    }

    #[test]
    fn base64_matches_known_values() {
        // RFC 4648, section 10.
        for (input, out) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), out);
        }
    }
}
