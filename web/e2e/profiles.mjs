// Browser tests of player profiles, in both languages: a profile made on the lobby, its table in
// "my games", the profile moved to a second browser context by its link (the key in the
// fragment) and reclaiming its seat there; a game between three profiles played to its end, its
// statistics on the profile page and the ranking page with numbers in the page's language.
// Run by run.mjs.

const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function toLang(page, lang) {
  // The page's own language is known once it is drawn.
  await page.waitForFunction(() => document.body.dataset.ready);
  if ((await page.evaluate(() => document.documentElement.lang)) === lang) return;
  await page.locator("button.lang").click();
  await page.waitForFunction((l) => document.documentElement.lang === l && document.body.dataset.ready, lang);
}

async function api(base, method, path, body, key) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers.Authorization = `Bearer ${key}`;
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const plain = (s) => s.replace(/[\u2066-\u2069]/g, "").replace(/\s+/g, " ").trim();

export default async function profiles({ test, base, shots, fitsPhone, browser, playToTheEnd }) {
  for (const lang of ["en", "ja"]) {
    const words = lang === "ja"
      ? { mine: "自分の対局", create: "プロフィールを作る", back: "自分の席に戻る", use: "この端末でこのプロフィールを使う", as: "プレイヤー：" }
      : { mine: "My games", create: "Create my profile", back: "Return to my seat", use: "Use this profile here", as: "Playing as" };

    await test(`a profile moved to another browser by its link reclaims its seat (${lang})`, async (page, context, errors) => {
      await page.goto(base);
      await toLang(page, lang);
      const mine = page.locator("section.my-games");
      await mine.locator("h2").filter({ hasText: words.mine }).waitFor();
      await mine.locator("input[name=profile-name]").fill("Aki");
      await mine.locator("button[type=submit]").filter({ hasText: words.create }).click();
      await mine.locator(".mine-who").waitFor();
      const who = plain(await mine.locator(".mine-who").innerText());
      if (!who.startsWith(`${words.as}${lang === "ja" ? "" : " "}Aki`)) throw new Error(`the lobby says ${JSON.stringify(who)}`);
      const profile = await page.evaluate(() => JSON.parse(localStorage.getItem("torite-profile")));
      if (!/^[0-9a-f]{16}\.[0-9a-f]{32}$/.test(profile.key)) throw new Error(`the browser keeps ${JSON.stringify(profile)}`);

      // A table made from the lobby is kept with the profile and listed in "my games".
      await page.locator("#name").fill("Aki");
      await page.locator("#preset").selectOption("mura-3");
      await page.locator("#fill").selectOption("");
      await page.locator("#create button[type=submit]").click();
      await page.waitForURL(/\/t\/[0-9a-f]+$/);
      const id = page.url().split("/").pop();
      await page.locator(".seat-box.me").waitFor();
      const token = await page.evaluate((t) => localStorage.getItem(`torite-token-${t}`), id);
      let listed = null;
      for (let i = 0; i < 50 && !listed; i++) {
        const me = await api(base, "GET", "/api/profiles/me", undefined, profile.key);
        listed = me.games.find((g) => g.table === id);
        if (!listed) await page.waitForTimeout(100);
      }
      if (!listed || listed.token !== token || listed.status !== "open") throw new Error(`the profile keeps ${JSON.stringify(listed)}`);
      await page.goto(base);
      await mine.locator(`.mine-playing [data-mine="${id}"]`).waitFor();
      await fitsPhone(page, "the lobby with my games");
      await shots(page, `profile-lobby-${lang}`);

      // The profile page: the link carries the key in its fragment; its QR code is drawn.
      await page.goto(`${base}/profile`);
      await page.locator("input.move-link").waitFor();
      const link = await page.locator("input.move-link").inputValue();
      if (link !== `${base}/profile/move#key=${profile.key}`) throw new Error(`the move link is ${JSON.stringify(link)}`);
      await page.waitForFunction(() => document.querySelector("img.qr")?.naturalWidth > 0);
      await fitsPhone(page, "the profile page");
      await shots(page, `profile-page-${lang}`);

      // Another browser opens the link, takes the profile, and gets the seat back.
      const seen = [];
      const other = await browser.newContext({ ...phone, locale: lang === "ja" ? "ja-JP" : "en-US" });
      other.on("request", (r) => seen.push(r.url()));
      const second = await other.newPage();
      second.on("pageerror", (e) => errors.push(`second browser: ${e}`));
      await second.goto(link);
      await toLang(second, lang);
      await second.locator(".move-who").waitFor();
      if (!plain(await second.locator(".move-who").innerText()).endsWith("Aki")) throw new Error("the move page does not name the profile");
      await shots(second, `profile-move-${lang}`);
      await second.locator("button.use-profile").filter({ hasText: words.use }).click();
      await second.waitForURL(`${base}/`);
      if (second.url().includes("key=")) throw new Error("the key stayed in the address");
      const row = second.locator(`section.my-games [data-mine="${id}"]`);
      await row.waitFor();
      await row.locator("a.mine-open").filter({ hasText: words.back }).click();
      await second.waitForURL(new RegExp(`/t/${id}$`));
      await second.locator(".seat-box.me").waitFor();
      const again = await second.evaluate((t) => localStorage.getItem(`torite-token-${t}`), id);
      if (again !== token) throw new Error("the second browser does not hold the seat's token");
      // A table page opened straight, with no token in that browser, gets the seat too.
      await second.evaluate((t) => localStorage.removeItem(`torite-token-${t}`), id);
      await second.goto(`${base}/t/${id}`);
      await second.locator(".seat-box.me").waitFor();
      await fitsPhone(second, "the reclaimed seat");
      await shots(second, `profile-reclaimed-${lang}`);
      if (seen.some((u) => u.includes(profile.key.split(".")[1]))) throw new Error("the key was sent in an address");
      await other.close();

      // A forged key is refused with the catalog's words.
      await page.evaluate(() => {
        const p = JSON.parse(localStorage.getItem("torite-profile"));
        p.key = `${p.key.split(".")[0]}.${"0".repeat(32)}`;
        localStorage.setItem("torite-profile", JSON.stringify(p));
      });
      await page.goto(base);
      await toLang(page, lang);
      const refused = page.locator("section.my-games .error");
      await refused.waitFor();
      const said = await refused.innerText();
      const expected = lang === "ja" ? "このプロフィールキーはこのサーバーが発行したものではありません" : "this profile key is not one this server gave";
      if (!said.includes(expected)) throw new Error(`a forged key is refused as ${JSON.stringify(said)}`);
    });

    await test(`statistics and the ranking of a game between profiles (${lang})`, async (page, context, errors) => {
      const names = ["Aki", "Ben", "Chie"];
      const made = [];
      for (const name of names) made.push(await api(base, "POST", "/api/profiles", { name: `${name}-${lang}` }));
      const table = await api(base, "POST", "/api/tables", { ruleset: { base: "mura-3", deals: 1 }, name: names[0] });
      const tokens = [table.token];
      for (const seat of [1, 2]) tokens.push((await api(base, "POST", `/api/tables/${table.id}/join`, { seat, name: names[seat] })).token);
      for (const seat of [0, 1, 2]) await api(base, "POST", `/api/tables/${table.id}/profile`, { token: tokens[seat] }, made[seat].key);
      await api(base, "POST", `/api/tables/${table.id}/start`, { token: tokens[0] });
      // Each player in a browser of their own, playing to the end.
      const contexts = [];
      const pages = [];
      for (const seat of [0, 1, 2]) {
        const c = seat === 0 ? context : await browser.newContext({ ...phone, locale: "en-US" });
        if (seat) contexts.push(c);
        const p = seat === 0 ? page : await c.newPage();
        if (seat) p.on("pageerror", (e) => errors.push(`seat ${seat}: ${e}`));
        await p.goto(base);
        await p.evaluate(([id, tk, s, prof]) => {
          localStorage.setItem(`torite-token-${id}`, tk);
          localStorage.setItem(`torite-seat-${id}`, String(s));
          localStorage.setItem("torite-profile", JSON.stringify(prof));
        }, [table.id, tokens[seat], seat, { id: made[seat].id, name: made[seat].name, key: made[seat].key }]);
        await p.goto(`${base}/t/${table.id}`);
        await p.locator(".seat-box.me").waitFor();
        pages.push(p);
      }
      await Promise.all(pages.map((p) => playToTheEnd(p)));
      const replay = await api(base, "GET", `/api/tables/${table.id}/replay`);
      for (const c of contexts) await c.close();

      // The profile page: one game against people, its deal score as the replay has it.
      await page.goto(`${base}/profile`);
      await toLang(page, lang);
      const stats = page.locator('.stats-preset[data-preset="mura-3"]');
      await stats.waitFor();
      const people = (await stats.locator("tr.people td").allInnerTexts()).map((s) => s.trim());
      const won = replay.winners.includes(0) ? "1" : "0";
      const average = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(replay.deals[0].scores[0]);
      if (JSON.stringify(people) !== JSON.stringify(["1", won, average])) throw new Error(`against people: ${JSON.stringify(people)}, the replay ${JSON.stringify(replay.deals[0].scores)}`);
      const bots = (await stats.locator("tr.bots td").allInnerTexts()).map((s) => s.trim());
      if (JSON.stringify(bots) !== JSON.stringify(["0", "0", "—"])) throw new Error(`against bots: ${JSON.stringify(bots)}`);
      await shots(page, `profile-stats-${lang}`);
      // The name changed on the profile page is the ranking's.
      await page.locator("input[name=new-name]").fill(`Akiko-${lang}`);
      await page.locator("form.profile-rename button[type=submit]").click();
      await page.waitForFunction((n) => document.querySelector(".profile h2")?.textContent.includes(n), `Akiko-${lang}`);

      // The ranking: the three of them, best first, this browser's own row marked.
      await page.goto(`${base}/ranking`);
      const ranked = page.locator('.ranking-preset[data-preset="mura-3"]');
      await ranked.waitFor();
      const rows = ranked.locator("tbody tr");
      const listed = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.profile));
      for (const m of made) if (!listed.includes(m.id)) throw new Error(`the ranking lists ${JSON.stringify(listed)}`);
      const ratings = await rows.locator("td.rating").allInnerTexts();
      const values = ratings.map((r) => Number(r.split("±")[0].replace(/[^\d]/g, "")));
      if (values.some((v, i) => i && v > values[i - 1])) throw new Error(`ratings out of order: ${JSON.stringify(ratings)}`);
      // Numbers in the page's language (1,500 / 1,500): thousands grouped, no raw float.
      if (!ratings.every((r) => /^\d,\d{3} ±\d+$/.test(r.trim()))) throw new Error(`ratings shown as ${JSON.stringify(ratings)}`);
      const me = ranked.locator(`tr.me[data-profile="${made[0].id}"]`);
      await me.waitFor();
      if (!plain(await me.locator("td.who").innerText()).startsWith(`Akiko-${lang}`)) throw new Error("the ranking does not show the new name");
      const heading = plain(await ranked.locator("h3").innerText());
      const title = lang === "ja" ? "ムーラ（3人）" : "Mura (3 players)";
      if (!heading.startsWith(title)) throw new Error(`the ranking's heading is ${JSON.stringify(heading)}`);
      await fitsPhone(page, "the ranking");
      await shots(page, `ranking-${lang}`);
    });
  }
}
