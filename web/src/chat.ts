// The table's chat (docs/PROTOCOL.md, "Chat and quick reactions"): the last lines as the
// server sends them, shown as text; a line or a quick reaction from a seated person; the
// host's mute of a seat. The server checks and refuses everything (length, flood, mutes):
// the panel only says what it is told.
import "./chat.css";
import { h, clear, nameEl } from "./dom";
import { has, t } from "./i18n";

export interface ChatLine {
  seat: number;
  name: string;
  text?: string;
  reaction?: string;
  at: number;
}

export interface ChatMsg {
  type: "chat";
  lines: ChatLine[];
  muted: number[];
}

/** The quick reactions the server takes, by code. */
export const REACTIONS = ["hello", "thanks", "nice", "oops", "good-game", "one-moment"];

/** The longest line the server takes, in characters. */
const MAX_CHAT = 200;

/** A reaction in the reader's words. */
export function reactionText(code: string): string {
  return has(`web-reaction-${code}`) ? t(`web-reaction-${code}`) : code;
}

/** Who the panel is drawn for. */
export interface ChatViewer {
  /** The reader's seat (null: a spectator). */
  seat: number | null;
  /** Whether the reader is the host. */
  host: boolean;
  /** The people seated at the table, the reader included. */
  people: { seat: number; name: string }[];
  /** Whether the connection is up (nothing can be sent otherwise). */
  live: boolean;
}

/**
 * The chat panel: one element kept across the table's redraws, so that a line being written
 * is not lost when the table changes. `send` hands a message to the socket (false if it is
 * not open).
 */
export function chatPanel(send: (msg: object) => boolean) {
  const list = h("ol", { class: "chat-lines", "aria-live": "polite" });
  const input = h("input", {
    type: "text", name: "chat", class: "chat-input", maxlength: MAX_CHAT, autocomplete: "off", enterkeyhint: "send",
  }) as HTMLInputElement;
  const submit = h("button", { type: "submit", class: "small chat-send" }) as HTMLButtonElement;
  const form = h("form", { class: "chat-form" }, input, submit) as HTMLFormElement;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!input.value.trim()) return;
    if (send({ type: "chat", text: input.value })) input.value = "";
  });
  const reactions = h("div", { class: "chat-reactions", role: "group" });
  const note = h("p", { class: "muted chat-note" });
  const mutes = h("div", { class: "chat-mutes" });
  const heading = h("h3", {});
  const element = h("section", { class: "chat" }, heading, list, reactions, form, note, mutes);
  let chat: ChatMsg | null = null;
  let shown = -1;

  const draw = (viewer: ChatViewer) => {
    heading.textContent = t("web-chat");
    input.placeholder = t("web-chat-placeholder");
    input.setAttribute("aria-label", t("web-chat-placeholder"));
    submit.textContent = t("web-chat-send");
    reactions.setAttribute("aria-label", t("web-chat-reactions"));
    const lines = chat?.lines ?? [];
    const muted = new Set(chat?.muted ?? []);
    clear(list, lines.length
      ? lines.map((l) => h("li", { class: `chat-line ${l.seat === viewer.seat ? "mine" : ""} ${l.reaction ? "reaction" : ""}`, "data-seat": l.seat },
          h("span", { class: "chat-name" }, nameEl(l.name)),
          h("span", { class: "chat-text" }, l.reaction ? reactionText(l.reaction) : l.text ?? "")))
      : h("li", { class: "muted chat-empty" }, t("web-chat-empty")));
    if (lines.length !== shown) {
      shown = lines.length;
      list.scrollTop = list.scrollHeight;
    }
    const mine = viewer.seat !== null;
    const silenced = mine && muted.has(viewer.seat!);
    const may = mine && !silenced;
    form.hidden = !may;
    reactions.hidden = !may;
    input.disabled = !viewer.live;
    submit.disabled = !viewer.live;
    clear(reactions, may
      ? REACTIONS.map((code) => h("button", {
          type: "button", class: "small reaction", "data-reaction": code, disabled: !viewer.live,
          onclick: () => send({ type: "chat", reaction: code }),
        }, reactionText(code)))
      : []);
    note.textContent = silenced ? t("web-chat-muted") : mine ? "" : t("web-chat-spectator");
    note.hidden = !note.textContent;
    // The host may mute any other seated person, and let them speak again.
    clear(mutes, viewer.host
      ? viewer.people.filter((p) => p.seat !== viewer.seat).map((p) => {
          const on = muted.has(p.seat);
          return h("button", {
            type: "button", class: `small mute ${on ? "on" : ""}`, "data-seat": p.seat, "aria-pressed": on ? "true" : "false", disabled: !viewer.live,
            onclick: () => send({ type: "mute", seat: p.seat, muted: !on }),
          }, t(on ? "web-chat-unmute" : "web-chat-mute", { name: p.name }));
        })
      : []);
  };

  return {
    element,
    /** Takes the server's latest chat message. */
    take(msg: ChatMsg) {
      chat = msg;
    },
    /** Draws the panel for `viewer`, keeping the line being written and its focus. */
    draw,
    /** Whether the line being written has the focus (to give it back after a redraw). */
    focused: () => document.activeElement === input,
    refocus(selection: [number | null, number | null]) {
      input.focus();
      if (selection[0] !== null) input.setSelectionRange(selection[0], selection[1]);
    },
    selection: (): [number | null, number | null] => [input.selectionStart, input.selectionEnd],
  };
}
