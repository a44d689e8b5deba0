// Browser tests of the table's chat, in both languages: a line (with markup, shown as text)
// and a quick reaction reach the other seat; an over-long line is refused in the reader's
// words; once the host mutes a seat it is told so, its lines are refused and reach nobody.
// Run by run.mjs.

/** The chat lines a page shows, as text. */
const linesOf = (page) => page.locator(".chat-lines .chat-line .chat-text").allInnerTexts();

export default async function chat({ test, base, shots, fitsPhone, browser }) {
  const post = async (path, body) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${data.error}`);
    return data;
  };
  /** A page of a new browser in `lang` holding seat `seat` of table `id` with `token`. */
  const seated = async (context, lang, id, seat, token) => {
    await context.addInitScript(([l, i, s, tk]) => {
      if (!location.protocol.startsWith("http")) return;
      localStorage.setItem("torite-lang", l);
      localStorage.setItem(`torite-token-${i}`, tk);
      localStorage.setItem(`torite-seat-${i}`, String(s));
    }, [lang, id, seat, token]);
    const page = await context.newPage();
    await page.goto(`${base}/t/${id}`);
    await page.locator("[data-live='1'] .chat").waitFor();
    return page;
  };

  for (const lang of ["en", "ja"]) {
    await test(`a chat line reaches the other seat and a muted seat's does not (${lang})`, async (page, context, errors) => {
      const made = await post("/api/tables", { ruleset: "mura-3", name: "Aki" });
      const ben = await post(`/api/tables/${made.id}/join`, { seat: 1, name: "Ben" });
      await post(`/api/tables/${made.id}/bot`, { seat: 2, bot: "random", token: made.token });
      await page.close();
      const host = await seated(context, lang, made.id, 0, made.token);
      const other = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const guestErrors = [];
      other.on("page", (p) => p.on("pageerror", (e) => guestErrors.push(String(e))));
      const guest = await seated(other, lang, made.id, 1, ben.token);

      // A line with markup: the other seat sees it as the text it is.
      const line = lang === "ja" ? "よろしく <b>太字</b> & <img src=x onerror=alert(1)>" : "hello <b>bold</b> & <img src=x onerror=alert(1)>";
      await host.locator(".chat-input").fill(line);
      await host.locator(".chat-input").press("Enter");
      await guest.waitForFunction((n) => document.querySelectorAll(".chat-lines .chat-line").length === n, 1);
      const seen = await linesOf(guest);
      const who = (await guest.locator(".chat-lines .chat-name").first().innerText()).replace(/[\u2066-\u2069]/g, "");
      if (seen[0] !== line || who !== "Aki") throw new Error(`the guest sees ${JSON.stringify(who)}: ${JSON.stringify(seen)}`);
      if (await guest.locator(".chat-lines b, .chat-lines img").count()) throw new Error("a chat line was drawn as markup");
      if ((await host.locator(".chat-input").inputValue()) !== "") throw new Error("the sent line stayed in the input");

      // A quick reaction, in the reader's words.
      await guest.locator("button.reaction[data-reaction=thanks]").click();
      await host.waitForFunction(() => document.querySelectorAll(".chat-lines .chat-line").length === 2);
      const thanks = lang === "ja" ? "ありがとう！" : "Thanks!";
      if (!(await linesOf(host))[1].includes(thanks)) throw new Error(`the reaction reads ${JSON.stringify(await linesOf(host))}`);

      // An over-long line is refused in the reader's words (the input's own limit removed).
      await host.locator(".chat-input").evaluate((el) => el.removeAttribute("maxlength"));
      await host.locator(".chat-input").fill("x".repeat(201));
      await host.locator(".chat-send").click();
      const refusal = lang === "ja" ? "チャットは 200 文字までです（この文は 201 文字）" : "a chat line is at most 200 characters (this one has 201)";
      await host.locator(".toast").filter({ hasText: refusal }).waitFor();

      // The host mutes Ben: Ben is told and can no longer write; a line sent anyway is
      // refused and reaches nobody.
      await host.locator(".chat-mutes button.mute[data-seat='1']").click();
      const mutedNote = lang === "ja" ? "ホストがあなたをミュートしました" : "The host has muted you";
      await guest.locator(".chat-note").filter({ hasText: mutedNote }).waitFor();
      if (await guest.locator(".chat-form").isVisible()) throw new Error("a muted seat is offered the input");
      if (await guest.locator("button.reaction").count()) throw new Error("a muted seat is offered the reactions");
      await host.locator(".chat-mutes button.mute.on[data-seat='1']").waitFor();
      const answer = await guest.evaluate(async ([id, token]) => {
        const ws = new WebSocket(`ws://${location.host}/ws/${id}?token=${token}`);
        return new Promise((resolve) => {
          ws.onopen = () => ws.send(JSON.stringify({ type: "chat", text: "can you hear me?" }));
          ws.onmessage = (e) => {
            const msg = JSON.parse(e.data);
            if (msg.type === "error") {
              ws.close();
              resolve(msg.code);
            }
          };
        });
      }, [made.id, ben.token]);
      if (answer !== "chat-muted") throw new Error(`a muted line was answered ${answer}`);
      await host.waitForTimeout(500);
      const after = await linesOf(host);
      if (after.length !== 2 || after.some((l) => l.includes("can you hear me"))) throw new Error(`the host's chat after the mute: ${JSON.stringify(after)}`);

      await fitsPhone(host, "the table with its chat");
      await fitsPhone(guest, "the muted seat's chat");
      await host.locator(".chat").scrollIntoViewIfNeeded();
      await shots(host, `chat-host-${lang}`);
      await shots(guest, `chat-muted-${lang}`);
      await other.close();
      if (guestErrors.length) errors.push(...guestErrors);
    });
  }
}
