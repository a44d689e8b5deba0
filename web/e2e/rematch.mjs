// Browser tests of the rematch, in both languages: two people play a one-deal game to its end,
// one clicks "Play again", the other is offered the rematch on their own page and joins it; it
// starts by itself with the same seats, and both pages show the series with the first game's
// totals as the record has them. Run by run.mjs.

export default async function rematch({ test, base, shots, fitsPhone, playToTheEnd, browser }) {
  const post = async (path, body) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${data.error}`);
    return data;
  };
  const seated = async (context, lang, id, seat, token) => {
    await context.addInitScript(([l, i, s, tk]) => {
      if (!location.protocol.startsWith("http")) return;
      localStorage.setItem("torite-lang", l);
      if (!localStorage.getItem(`torite-token-${i}`)) {
        localStorage.setItem(`torite-token-${i}`, tk);
        localStorage.setItem(`torite-seat-${i}`, String(s));
      }
    }, [lang, id, seat, token]);
    const page = await context.newPage();
    await page.goto(`${base}/t/${id}`);
    await page.locator("[data-live='1']").waitFor();
    return page;
  };
  /** The totals of each game of the series table, as shown. */
  const seriesRows = (page) => page.locator(".series tbody tr[data-game]").evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll("td")].slice(1).map((td) => Number(td.textContent))));

  for (const lang of ["en", "ja"]) {
    await test(`rematch: play again with the same seats, the series kept (${lang})`, async (page, context, errors) => {
      const made = await post("/api/tables", { ruleset: { base: "mura-3", deals: 1 }, name: "Aki" });
      const ben = await post(`/api/tables/${made.id}/join`, { seat: 1, name: "Ben" });
      await post(`/api/tables/${made.id}/bot`, { seat: 2, bot: "random", token: made.token });
      await post(`/api/tables/${made.id}/start`, { token: made.token });
      await page.close();
      const host = await seated(context, lang, made.id, 0, made.token);
      const other = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const guestErrors = [];
      other.on("page", (p) => p.on("pageerror", (e) => guestErrors.push(String(e))));
      const guest = await seated(other, lang, made.id, 1, ben.token);
      await Promise.all([playToTheEnd(host), playToTheEnd(guest)]);
      // The first game's totals as the server's replay of its record works them out.
      const { totals } = await (await fetch(`${base}/api/tables/${made.id}/replay`)).json();
      if (!Array.isArray(totals) || totals.length !== 3) throw new Error(`the replay's totals are ${JSON.stringify(totals)}`);

      // Aki plays again: a new table, Aki seated, Ben's seat kept for Ben.
      const again = lang === "ja" ? "もう一度遊ぶ" : "Play again";
      for (const p of [host, guest]) {
        await p.locator(".game-over").waitFor();
        const shut = p.locator(".modal button.close");
        if (await shut.count()) await shut.click();
      }
      await host.locator("button.rematch-button").filter({ hasText: again }).click();
      await host.waitForURL((url) => /\/t\/[0-9a-f]+$/.test(url.pathname) && !url.pathname.endsWith(made.id));
      const next = host.url().split("/").pop();
      await host.locator(".seat-box.me").waitFor();
      const waiting = lang === "ja" ? "前のゲームのプレイヤーが戻るのを待っています" : "Waiting for the other players of the last game to come back";
      await host.locator(".prompt").filter({ hasText: waiting }).waitFor();
      const kept = lang === "ja" ? "前のゲームのプレイヤーを待っています" : "kept for its player of the last game";
      await host.locator(".seat-box[data-seat='1'] .seat-kind.kept").filter({ hasText: kept }).waitFor();
      // A stranger watching the rematch is not offered Ben's seat.
      const stranger = await browser.newContext();
      const watching = await stranger.newPage();
      await watching.goto(`${base}/t/${next}`);
      await watching.locator("[data-live='1'] .seat-box[data-seat='1']").waitFor();
      if (await watching.locator("button.join").count()) throw new Error("a stranger is offered a kept seat of the rematch");
      await stranger.close();
      await shots(host, `rematch-waiting-${lang}`);

      // Ben's page, still at the finished game, offers the rematch; Ben joins and it starts.
      const join = lang === "ja" ? "再戦に加わる" : "Join the rematch";
      // The last deal's summary closed first, as a person would.
      const close = guest.locator(".modal button.close");
      if (await close.count()) await close.click();
      await guest.locator("button.rematch-button").filter({ hasText: join }).click();
      await guest.waitForURL((url) => url.pathname === `/t/${next}`);
      await guest.locator(".seat-box.me").waitFor();
      await host.locator(".hand .card").first().waitFor();
      const summary = await (await fetch(`${base}/api/tables/${next}`)).json();
      if (summary.status !== "playing" || summary.seats[0].name !== "Aki" || summary.seats[1].name !== "Ben" || summary.seats[2].kind !== "bot") {
        throw new Error(`the rematch is ${JSON.stringify(summary)}`);
      }
      for (const p of [host, guest]) {
        const rows = await seriesRows(p);
        if (rows.length !== 1 || JSON.stringify(rows[0]) !== JSON.stringify(totals)) {
          throw new Error(`the series shows ${JSON.stringify(rows)}, the record's totals are ${JSON.stringify(totals)}`);
        }
      }
      const heading = await host.locator(".series summary").innerText();
      if (heading !== (lang === "ja" ? "シリーズ：2ゲーム" : "Series: 2 games")) throw new Error(`the series is headed ${JSON.stringify(heading)}`);
      await fitsPhone(guest, "the rematch with its series");
      await host.locator(".series").evaluate((el) => { el.open = true; });
      await shots(host, `rematch-series-${lang}`);
      await other.close();
      if (guestErrors.length) errors.push(...guestErrors);
    });
  }
}
