//! How the first answer to an interaction goes out. Over the gateway it is a
//! REST call (`POST /interactions/{id}/{token}/callback`); with `serve
//! --http` it is the body of the HTTP reply to Discord's request (Discord
//! takes the initial response only there, within 3 s). Everything after the
//! first answer — edits, follow-ups, threads, DMs — goes through REST either
//! way, with the interaction token.

use std::sync::Mutex;
use std::time::Duration;

use serenity::all::CreateInteractionResponse;
use tokio::sync::oneshot;

/// How long the handler waits for the HTTP reply carrying its first answer
/// to be written before it goes on (edits must not overtake it).
const WRITTEN_WITHIN: Duration = Duration::from_secs(2);

/// Where the first answer of one interaction goes.
pub(crate) enum FirstAnswer {
    /// A REST callback (the gateway).
    Rest,
    /// The body of the HTTP reply (`serve --http`).
    Body(BodySlot),
}

/// The HTTP reply waiting for its body; taken by the first answer.
pub(crate) struct BodySlot(Mutex<Option<oneshot::Sender<HttpAnswer>>>);

/// A first answer as an HTTP body.
pub(crate) struct HttpAnswer {
    /// `application/json`, or `multipart/form-data; boundary=...` when
    /// files are attached.
    pub content_type: String,
    pub body: Vec<u8>,
    /// Fired once the body was handed to the connection (or dropped).
    pub written: oneshot::Sender<()>,
}

impl BodySlot {
    pub(crate) fn new(tx: oneshot::Sender<HttpAnswer>) -> BodySlot {
        BodySlot(Mutex::new(Some(tx)))
    }

    /// Answers the HTTP request with `response` (and `files`), then waits
    /// until the body went out, so that a later edit of the answer cannot
    /// reach Discord before the answer itself.
    pub(crate) async fn send(
        &self,
        response: &CreateInteractionResponse,
        files: &[(String, Vec<u8>)],
    ) -> serenity::Result<()> {
        let tx = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .ok_or(serenity::Error::Other(
                "the interaction was already answered",
            ))?;
        let (content_type, body) = encode(response, files)?;
        let (written, done) = oneshot::channel();
        tx.send(HttpAnswer {
            content_type,
            body,
            written,
        })
        .map_err(|_| serenity::Error::Other("the HTTP request is gone"))?;
        // An error here means the reply was dropped unsent (the connection
        // closed): nothing to wait for.
        let _ = tokio::time::timeout(WRITTEN_WITHIN, done).await;
        Ok(())
    }
}

/// The HTTP body of an interaction response: JSON, or with files a
/// `multipart/form-data` body whose `payload_json` part is the JSON and whose
/// `files[n]` parts are the files, `n` matching `data.attachments[n].id`
/// (Discord's "Uploading Files"; the same shape serenity sends over REST).
pub(crate) fn encode(
    response: &CreateInteractionResponse,
    files: &[(String, Vec<u8>)],
) -> serde_json::Result<(String, Vec<u8>)> {
    let mut json = serde_json::to_value(response)?;
    if files.is_empty() {
        return Ok(("application/json".into(), serde_json::to_vec(&json)?));
    }
    if let Some(data) = json.get_mut("data").and_then(|d| d.as_object_mut()) {
        let attachments: Vec<serde_json::Value> = files
            .iter()
            .enumerate()
            .map(|(n, (name, _))| serde_json::json!({"id": n, "filename": name}))
            .collect();
        data.insert("attachments".into(), attachments.into());
    }
    let boundary = boundary_for(files);
    let mut body = Vec::new();
    let mut part = |disposition: &str, content_type: &str, bytes: &[u8]| {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        body.extend_from_slice(
            format!("Content-Disposition: form-data; {disposition}\r\n").as_bytes(),
        );
        body.extend_from_slice(format!("Content-Type: {content_type}\r\n\r\n").as_bytes());
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    };
    part(
        "name=\"payload_json\"",
        "application/json",
        &serde_json::to_vec(&json)?,
    );
    for (n, (name, bytes)) in files.iter().enumerate() {
        let name: String = name
            .chars()
            .filter(|c| !matches!(c, '"' | '\r' | '\n' | '\\'))
            .collect();
        part(
            &format!("name=\"files[{n}]\"; filename=\"{name}\""),
            "application/octet-stream",
            bytes,
        );
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok((format!("multipart/form-data; boundary={boundary}"), body))
}

/// A boundary that occurs in none of the files.
fn boundary_for(files: &[(String, Vec<u8>)]) -> String {
    let mut n = 0u64;
    loop {
        let b = format!("komadai-{n:016x}");
        let needle = b.as_bytes();
        if !files
            .iter()
            .any(|(_, f)| f.windows(needle.len()).any(|w| w == needle))
        {
            return b;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serenity::all::CreateInteractionResponseMessage;

    #[test]
    fn a_text_answer_is_plain_json() {
        let r = CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new()
                .content("hi")
                .ephemeral(true),
        );
        let (ct, body) = encode(&r, &[]).expect("encodes");
        assert_eq!(ct, "application/json");
        let v: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(v["type"], 4);
        assert_eq!(v["data"]["content"], "hi");
        assert_eq!(v["data"]["flags"], 64);
    }

    #[test]
    fn files_make_a_multipart_body_with_numbered_attachments() {
        let r = CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new().content("move"),
        );
        let files = vec![
            ("board.png".to_string(), b"\x89PNG\r\n\x1a\nabc".to_vec()),
            ("game.kif".to_string(), b"kif".to_vec()),
        ];
        let (ct, body) = encode(&r, &files).expect("encodes");
        let boundary = ct
            .strip_prefix("multipart/form-data; boundary=")
            .expect("multipart");
        let text = String::from_utf8_lossy(&body);
        assert!(text.starts_with(&format!("--{boundary}\r\n")));
        assert!(text.ends_with(&format!("--{boundary}--\r\n")));
        assert!(text.contains("name=\"payload_json\""));
        assert!(text.contains("name=\"files[0]\"; filename=\"board.png\""));
        assert!(text.contains("name=\"files[1]\"; filename=\"game.kif\""));
        let start = text.find('{').expect("json");
        let end = text[start..].find("\r\n").expect("end") + start;
        let v: serde_json::Value = serde_json::from_str(&text[start..end]).expect("payload");
        assert_eq!(v["data"]["attachments"][1]["id"], 1);
        assert_eq!(v["data"]["attachments"][0]["filename"], "board.png");
    }
}
