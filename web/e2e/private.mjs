// Browser tests of private tables, in both languages: created private from the lobby's form,
// absent from /api/tables and from another browser's lobby, refused (as an unknown table) at
// its address without the secret, and joined through the invite link only. Run by run.mjs.

export default async function privateTables({ test, base, shots, fitsPhone, browser }) {
  for (const lang of ["en", "ja"]) {
    await test(`a private table is unlisted and joined by its invite link only (${lang})`, async (page, context, errors) => {
      await page.goto(base);
      if (lang === "ja") {
        await page.locator("button.lang").click();
        await page.waitForFunction(() => document.documentElement.lang === "ja" && document.body.dataset.ready);
      }
      const fillForm = async () => {
        await page.locator("#name").fill("Aki");
        await page.locator("#preset").selectOption("mura-3");
        await page.locator("#fill").selectOption("");
        await page.locator("#private").check();
      };
      await fillForm();
      const label = (await page.locator("label.private-choice").innerText()).trim();
      const words = lang === "ja" ? "非公開のテーブル" : "Private table";
      if (!label.startsWith(words)) throw new Error(`the private choice reads ${JSON.stringify(label)}`);
      await fitsPhone(page, "the create form");
      await shots(page, `private-create-${lang}`);
      // The pictures in the other language drew the form again.
      await fillForm();
      await page.locator("#create button[type=submit]").click();
      await page.waitForURL(/\/t\/[0-9a-f]+$/);
      const id = page.url().split("/").pop();
      await page.locator(".private-badge").waitFor();
      if ((await page.locator(".private-badge").innerText()).trim() !== words) throw new Error("the table page does not say it is private");

      // Not in the lobby's list, nor at its address without the secret.
      const list = await (await fetch(`${base}/api/tables`)).json();
      if (list.some((tb) => tb.id === id)) throw new Error("the private table is listed in /api/tables");
      const bare = await fetch(`${base}/api/tables/${id}`);
      const unknown = await fetch(`${base}/api/tables/0123456789ab`);
      if (bare.status !== 404 || unknown.status !== 404) throw new Error(`without the secret: ${bare.status}`);
      const [a, b] = [await bare.json(), await unknown.json()];
      if (a.code !== b.code || a.code !== "no-table") throw new Error(`refused as ${a.code}, an unknown table as ${b.code}`);

      // The invite button gives the link with the secret.
      await page.locator("button.invite").click();
      const link = (await page.locator(".note").innerText()).trim();
      if (!new RegExp(`^${base}/t/${id}\\?key=[0-9a-f]{32}$`).test(link)) throw new Error(`the invite link is ${JSON.stringify(link)}`);
      await page.locator(".seat-box").first().waitFor();
      await shots(page, `private-table-${lang}`);

      // Another browser: the lobby does not list it, its plain address says there is no such
      // table, its invite link opens it and a seat can be taken.
      const guestErrors = [];
      const guest = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: lang === "ja" ? "ja-JP" : "en-US" });
      const other = await guest.newPage();
      other.on("pageerror", (e) => guestErrors.push(String(e)));
      await other.goto(base);
      await other.locator(".tables").waitFor();
      await other.waitForFunction(() => document.body.dataset.ready);
      if (await other.locator(`[data-table="${id}"]`).count()) throw new Error("another browser's lobby lists the private table");
      await other.goto(`${base}/t/${id}`);
      await other.locator(".game-over h2").waitFor();
      const said = await other.locator(".game-over h2").innerText();
      if (!said.includes(id)) throw new Error(`the plain address says ${JSON.stringify(said)}`);
      if (await other.locator("button.join").count()) throw new Error("a seat is offered without the secret");
      await other.evaluate(() => localStorage.setItem("torite-name", "Ben"));
      await other.goto(link);
      const join = other.locator("button.join").first();
      await join.waitFor();
      await other.waitForFunction(() => document.querySelector("[data-live='1']"));
      await join.click();
      await other.locator(".seat-box.me").waitFor();
      await other.locator(".private-badge").waitFor();
      await fitsPhone(other, "the private table joined by its link");
      const key = new URL(link).searchParams.get("key");
      const summary = await (await fetch(`${base}/api/tables/${id}?key=${key}`)).json();
      if (summary.seats[1]?.kind !== "human" || summary.seats[1]?.name !== "Ben") throw new Error(`seats after joining: ${JSON.stringify(summary.seats)}`);
      // The host sees the guest arrive.
      await page.waitForFunction(() => [...document.querySelectorAll(".seat-box")].some((e) => e.textContent.includes("Ben")));
      await guest.close();
      if (guestErrors.length) errors.push(...guestErrors);
    });
  }
}
