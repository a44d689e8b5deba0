//! A table's chat: lines and quick reactions from the people seated at it, and the host's
//! mutes. Both are events of the table's log ([`Event::Chat`], [`Event::Mute`]), so they are
//! stored with the table and survive a restart; neither changes the table's version (an action
//! answering a state is never stale because someone spoke). The table keeps the last
//! [`CHAT_KEPT`] lines in memory, the log all of them.

use std::collections::VecDeque;

use torite_core::Seat;

use super::{Event, Occupant, TableState, refused_in_name};
use crate::protocol::{ChatLineMsg, ServerMsg};
use crate::refusal::{Key, Refusal, Why};

/// The longest chat line, in characters.
pub const MAX_CHAT: usize = 200;

/// How many of the last lines a table keeps and sends.
pub const CHAT_KEPT: usize = 50;

/// The quick reactions, by code: the browser shows each in the reader's language
/// (`web-reaction-{code}`).
pub const REACTIONS: &[&str] = &["hello", "thanks", "nice", "oops", "good-game", "one-moment"];

/// One line of the chat, as kept and sent.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChatLine {
    /// The seat that spoke.
    pub seat: Seat,
    /// Its name when it spoke.
    pub name: String,
    /// What it said, or `None` for a reaction.
    pub text: Option<String>,
    /// The reaction's code, or `None` for a line of text.
    pub reaction: Option<String>,
    /// When (ms since the Unix epoch, by the server's clock).
    pub at: u64,
}

/// The chat of a table: the last lines, each seat's mute, and how many changes so far.
#[derive(Clone, Debug, Default)]
pub(crate) struct Chat {
    lines: VecDeque<ChatLine>,
    muted: Vec<bool>,
    changes: u64,
}

/// Checks a chat line: trimmed, 1 to [`MAX_CHAT`] characters, none that a name may not hold
/// ([`refused_in_name`]: control, format, bidirectional and private-use characters).
///
/// # Errors
///
/// A 400 refusal saying what is wrong.
pub fn check_chat_text(text: &str) -> Result<String, Refusal> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Refusal::bad(Why::ChatEmpty));
    }
    if let Some((c, why)) = text
        .chars()
        .find_map(|c| refused_in_name(c).map(|w| (c, w)))
    {
        return Err(Refusal::bad(Why::ChatCharacter {
            character: format!("U+{:04X}", u32::from(c)),
            why: Key(why),
        }));
    }
    let length = text.chars().count();
    if length > MAX_CHAT {
        return Err(Refusal::bad(Why::ChatTooLong {
            max: MAX_CHAT.to_string(),
            length: length.to_string(),
        }));
    }
    Ok(text.to_owned())
}

/// Checks a reaction's code.
///
/// # Errors
///
/// A 400 refusal naming the reactions there are.
pub fn check_reaction(code: &str) -> Result<(), Refusal> {
    if REACTIONS.contains(&code) {
        Ok(())
    } else {
        Err(Refusal::bad(Why::ChatReaction {
            reaction: crate::refusal::shown(code),
            known: REACTIONS.join(", "),
        }))
    }
}

impl TableState {
    /// Whether a seat's person has been muted by the host.
    #[must_use]
    pub fn is_muted(&self, seat: Seat) -> bool {
        self.chat.muted.get(seat).copied().unwrap_or(false)
    }

    /// The last lines of the chat, oldest first.
    pub fn chat_lines(&self) -> impl Iterator<Item = &ChatLine> {
        self.chat.lines.iter()
    }

    /// How many chat lines and mutes the table has taken: changes when the chat message does.
    #[must_use]
    pub const fn chat_changes(&self) -> u64 {
        self.chat.changes
    }

    /// The `chat` message every socket at the table is sent: the last lines and who is muted.
    #[must_use]
    pub fn chat_message(&self) -> ServerMsg {
        ServerMsg::Chat {
            lines: self
                .chat
                .lines
                .iter()
                .map(|l| ChatLineMsg {
                    seat: l.seat,
                    name: l.name.clone(),
                    text: l.text.clone(),
                    reaction: l.reaction.clone(),
                    at: l.at,
                })
                .collect(),
            muted: (0..self.seats.len())
                .filter(|s| self.is_muted(*s))
                .collect(),
        }
    }

    /// Checks a chat or mute event (the others are not talk).
    pub(super) fn check_talk(&self, event: &Event) -> Result<(), Refusal> {
        let person = |seat: Seat| matches!(self.seats.get(seat), Some(Occupant::Human { .. }));
        match event {
            Event::Chat {
                seat,
                text,
                reaction,
                ..
            } => {
                if !person(*seat) {
                    return Err(Refusal::forbidden(Why::ChatNoSeat));
                }
                if self.is_muted(*seat) {
                    return Err(Refusal::forbidden(Why::ChatMuted));
                }
                match (text, reaction) {
                    (Some(text), None) => {
                        if check_chat_text(text)? != *text {
                            return Err(Refusal::bad(Why::ChatEmpty));
                        }
                        Ok(())
                    }
                    (None, Some(code)) => check_reaction(code),
                    _ => Err(Refusal::bad(Why::MessageNoChat)),
                }
            }
            Event::Mute { seat, .. } => {
                if person(*seat) {
                    Ok(())
                } else {
                    Err(Refusal::bad(Why::MuteNoPerson {
                        seat: (seat + 1).to_string(),
                    }))
                }
            }
            _ => Ok(()),
        }
    }

    /// Applies a checked chat or mute event.
    pub(super) fn apply_talk(&mut self, event: &Event) {
        let n = self.seats.len();
        if self.chat.muted.len() < n {
            self.chat.muted.resize(n, false);
        }
        match event {
            Event::Chat {
                seat,
                text,
                reaction,
                at,
            } => {
                let line = ChatLine {
                    seat: *seat,
                    name: self.name(*seat),
                    text: text.clone(),
                    reaction: reaction.clone(),
                    at: *at,
                };
                if self.chat.lines.len() == CHAT_KEPT {
                    self.chat.lines.pop_front();
                }
                self.chat.lines.push_back(line);
            }
            Event::Mute { seat, muted } => self.chat.muted[*seat] = *muted,
            _ => return,
        }
        self.chat.changes += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::token_hash;

    fn table() -> TableState {
        let mut state = TableState::new(
            "t",
            &Event::Created {
                ruleset: serde_json::json!("mura-3"),
                seed: 1,
                host: token_hash("h"),
                timer: None,
                created: 0,
                invite: None,
            },
        )
        .unwrap();
        for (seat, name) in [(0, "Aki"), (1, "Ben")] {
            state
                .apply(&Event::Join {
                    seat,
                    name: name.into(),
                    token: token_hash(name),
                })
                .unwrap();
        }
        state
            .apply(&Event::Bot {
                seat: 2,
                bot: "random".parse().unwrap(),
            })
            .unwrap();
        state
    }

    fn say(seat: Seat, text: &str) -> Event {
        Event::Chat {
            seat,
            text: Some(text.into()),
            reaction: None,
            at: 5,
        }
    }

    #[test]
    fn lines_are_kept_without_changing_the_version() {
        let mut state = table();
        let version = state.version();
        state.apply(&say(0, "hello")).unwrap();
        state
            .apply(&Event::Chat {
                seat: 1,
                text: None,
                reaction: Some("thanks".into()),
                at: 6,
            })
            .unwrap();
        assert_eq!(
            state.version(),
            version,
            "talk leaves the version as it was"
        );
        let lines: Vec<_> = state.chat_lines().cloned().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].name, "Aki");
        assert_eq!(lines[1].reaction.as_deref(), Some("thanks"));
        assert_eq!(
            state.chat_message().to_text(),
            r#"{"type":"chat","lines":[{"seat":0,"name":"Aki","text":"hello","at":5},{"seat":1,"name":"Ben","reaction":"thanks","at":6}],"muted":[]}"#
        );
        for _ in 0..CHAT_KEPT + 5 {
            state.apply(&say(1, "again")).unwrap();
        }
        assert_eq!(state.chat_lines().count(), CHAT_KEPT);
        assert_eq!(state.chat_changes(), 2 + CHAT_KEPT as u64 + 5);
    }

    #[test]
    fn bots_empty_seats_and_the_muted_do_not_chat() {
        let mut state = table();
        assert_eq!(
            state.apply(&say(2, "beep")).unwrap_err().code(),
            "chat-no-seat"
        );
        state
            .apply(&Event::Mute {
                seat: 1,
                muted: true,
            })
            .unwrap();
        assert_eq!(state.apply(&say(1, "hi")).unwrap_err().code(), "chat-muted");
        assert_eq!(state.chat_lines().count(), 0);
        assert!(state.chat_message().to_text().ends_with(r#""muted":[1]}"#));
        state
            .apply(&Event::Mute {
                seat: 1,
                muted: false,
            })
            .unwrap();
        state.apply(&say(1, "hi")).unwrap();
        assert_eq!(
            state
                .apply(&Event::Mute {
                    seat: 2,
                    muted: true
                })
                .unwrap_err()
                .code(),
            "mute-no-person"
        );
    }

    #[test]
    fn bad_lines_are_refused_with_the_reason() {
        let mut state = table();
        let long = "あ".repeat(MAX_CHAT + 1);
        let refused = state.apply(&say(0, &long)).unwrap_err();
        assert_eq!(refused.code(), "chat-too-long");
        assert_eq!(
            refused.message(),
            format!("a chat line is at most {MAX_CHAT} characters (this one has 201)")
        );
        assert_eq!(check_chat_text("  ").unwrap_err().code(), "chat-empty");
        assert_eq!(
            check_chat_text("a\u{202E}b").unwrap_err().code(),
            "chat-character"
        );
        assert_eq!(
            check_chat_text(&"あ".repeat(MAX_CHAT))
                .unwrap()
                .chars()
                .count(),
            MAX_CHAT
        );
        assert_eq!(check_reaction("dance").unwrap_err().code(), "chat-reaction");
        // A stored line is taken as it was checked: not trimmed again, not empty.
        assert!(state.apply(&say(0, " hi")).is_err());
        assert_eq!(state.chat_lines().count(), 0);
    }
}
