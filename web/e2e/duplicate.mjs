// Browser tests of duplicate nights (/duplicate/new, /duplicate/{id}): a series of 2 tables ×
// 4 deals created from the header's link, with bots in every seat but one per table; a person
// at each table (two browser contexts, through the links the host's page gives) plays to the
// end, and the comparison page, in both languages, shows every deal with the figures the
// server's records give (each table's score against the tables' mean), and the download.
// Run by run.mjs.

/** Each deal's scores of a record, from its replay (`GET /api/tables/{id}/replay`). */
async function replayScores(base, link) {
  const [path, query] = link.split("?");
  const id = path.split("/").pop();
  const res = await fetch(`${base}/api/tables/${id}/replay?${query}`);
  if (!res.ok) throw new Error(`the replay of ${id}: ${res.status}`);
  return (await res.json()).deals.map((d) => d.scores);
}

/** Plays the person's seat of a table page to the end: the first legal card each turn, or the
 * last one (`last`), so that the two tables play the same cards differently. */
async function playTable(page, playToTheEnd, last = false) {
  if (!last) await playToTheEnd(page);
  for (let step = 0; last && step < 400; step++) {
    if (await page.locator(".game-over").count()) break;
    const close = page.locator(".modal button.close");
    if (await close.count()) {
      await close.click();
      continue;
    }
    const quick = { timeout: 2000 };
    const question = page.locator(".ask [data-action]:not(.confirm)");
    const card = page.locator(".hand button.card:not([disabled])");
    if ((await page.locator(".ask .prompt").count()) && (await question.count()) && !(await card.count())) {
      // The Lot question: declare it (the first choice), where the first table passes.
      await question.first().click(quick).catch(() => {});
    } else if (await card.count()) {
      if (await card.last().click(quick).then(() => true, () => false)) {
        await page.locator("button.confirm").click(quick).catch(() => {});
      }
    }
    await page.waitForTimeout(50);
  }
  await page.locator(".game-over").waitFor({ timeout: 60000 });
}

export default async function ({ test, base, shots, fitsPhone, browser, playToTheEnd, out, join }) {
  for (const language of ["en", "ja"]) {
    await test(`duplicate night of 2 tables × 4 deals, compared deal by deal (${language})`, async (page) => {
      await page.goto(base);
      if (language === "ja") {
        await page.locator("button.lang").click();
        await page.waitForFunction(() => document.documentElement.lang === "ja" && document.body.dataset.ready);
      }
      await page.locator("a.duplicate-night").click();
      await page.locator("#duplicate-create").waitFor();
      await page.locator("#duplicate-preset").selectOption("mini-misere-4");
      await page.locator("#duplicate-deals").fill("4");
      await page.locator("#duplicate-tables").fill("2");
      // A person in seat 1, bots of a named level in the others: offered in words.
      const offered = await page.locator("[name=seat-1] option").allInnerTexts();
      if (offered.some((o) => /heuristic|random|club/.test(o))) throw new Error(`the seats offer ${JSON.stringify(offered)}`);
      await page.locator("[name=seat-0]").selectOption("person");
      for (const s of [1, 2, 3]) await page.locator(`[name=seat-${s}]`).selectOption({ index: 1 });
      await fitsPhone(page, "the duplicate form");
      await shots(page, `duplicate-new-${language}`);
      // A bad number of deals is refused in the page's language.
      await page.locator("#duplicate-deals").fill("99");
      await page.locator("#duplicate-create").evaluate((f) => f.setAttribute("novalidate", ""));
      await page.locator("#duplicate-create button[type=submit]").click();
      await page.waitForFunction(() => document.querySelector(".duplicate-error:not([hidden])")?.textContent, null, { timeout: 5000 });
      const refused = await page.locator(".duplicate-error").innerText();
      const want = language === "ja" ? "デュプリケートのディール数は1から24までの整数で指定してください" : "a duplicate series has from 1 to 24 deals, given as a whole number";
      if (!refused.includes(want)) throw new Error(`the refusal reads ${JSON.stringify(refused)}`);
      await page.locator("#duplicate-deals").fill("4");
      await page.locator("#duplicate-create button[type=submit]").click();
      await page.waitForURL(/\/duplicate\/[0-9a-f]+$/);
      await page.locator(".duplicate-table").nth(1).waitFor();
      const id = new URL(page.url()).pathname.split("/").pop();
      const links = await page.locator(".duplicate-table a.table-link").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      if (links.length !== 2 || links[0] === links[1]) throw new Error(`the host's page links ${JSON.stringify(links)}`);
      const text = await page.locator("main").innerText();
      if (/heuristic|random|\bclub\b|"kind"|\{/.test(text)) throw new Error(`the series page shows ${JSON.stringify(text.slice(0, 500))}`);
      await fitsPhone(page, "the host's series page before play");
      await shots(page, `duplicate-host-${language}`);
      // A person at each table, each in a browser of their own, by the table's link.
      const players = [];
      for (const [i, link] of links.entries()) {
        const context = await browser.newContext({ locale: language === "ja" ? "ja-JP" : "en-US", viewport: { width: 390, height: 844 } });
        const p = await context.newPage();
        await p.goto(base);
        await p.evaluate((name) => localStorage.setItem("torite-name", name), i === 0 ? "Aki" : "Ben");
        await p.goto(`${base}${link}`);
        const take = p.locator("button.join").first();
        await take.waitFor();
        await p.waitForFunction(() => document.querySelector("[data-live='1']"));
        await take.click();
        await p.locator(".seat-box.me").waitFor();
        players.push({ context, page: p });
      }
      // The host starts both tables once their seats are taken.
      for (const i of [0, 1]) {
        const start = page.locator(`.duplicate-table[data-table='${i + 1}'] button.duplicate-start`);
        await page.waitForFunction((n) => !document.querySelector(`.duplicate-table[data-table='${n}'] button.duplicate-start`)?.disabled, i + 1, { timeout: 10000 });
        await start.click();
      }
      await page.waitForFunction(() => document.querySelectorAll("button.duplicate-start").length === 0, null, { timeout: 10000 });
      // Table 1 plays its four deals; table 2 none yet: nothing is compared.
      await playTable(players[0].page, playToTheEnd);
      await page.reload();
      await page.locator(".duplicate-none").waitFor();
      if ((await page.locator(".duplicate-deal").count()) !== 0) throw new Error("a deal is compared before table 2 has played it");
      await playTable(players[1].page, playToTheEnd, true);
      await page.waitForFunction(() => document.querySelector(".duplicate")?.dataset.compared === "4", null, { timeout: 15000 });
      // Every figure as the tables' replays give it.
      const scores = [await replayScores(base, links[0]), await replayScores(base, links[1])];
      const shown = await page.evaluate(() => [...document.querySelectorAll(".duplicate-deal")].map((d) =>
        [...d.querySelectorAll(".duplicate-row")].map((r) => [...r.querySelectorAll(".duplicate-diff")].map((e) => Number(e.dataset.diff)))));
      const cells = await page.evaluate(() => [...document.querySelectorAll(".duplicate-deal")].map((d) =>
        [...d.querySelectorAll(".duplicate-row")].map((r) => [...r.querySelectorAll(".duplicate-score")].map((e) => e.textContent))));
      if (shown.length !== 4) throw new Error(`the page compares ${shown.length} deals`);
      for (let d = 0; d < 4; d++) {
        for (let t = 0; t < 2; t++) {
          for (let s = 0; s < 4; s++) {
            const mean = (scores[0][d][s] + scores[1][d][s]) / 2;
            if (Math.abs(shown[d][t][s] - (scores[t][d][s] - mean)) > 0.006) throw new Error(`deal ${d + 1}, table ${t + 1}, seat ${s + 1}: ${shown[d][t][s]}, not ${scores[t][d][s] - mean}`);
            if (cells[d][t][s] !== String(scores[t][d][s])) throw new Error(`deal ${d + 1}, table ${t + 1}, seat ${s + 1} shows ${cells[d][t][s]}`);
          }
        }
      }
      if (shown.every((deal) => deal.every((row) => row.every((x) => x === 0)))) throw new Error("the two tables scored every deal alike: nothing was compared");
      // The running comparison is the sum of the differences.
      const running = await page.locator(".duplicate-running-row[data-table='1'] td").evaluateAll((tds) => tds.map((e) => Number(e.dataset.running)));
      for (let s = 0; s < 4; s++) {
        const sum = shown.reduce((acc, deal) => acc + deal[0][s], 0);
        if (Math.abs(running[s] - sum) > 0.03) throw new Error(`table 1's running figure of seat ${s + 1} is ${running[s]}, not ${sum}`);
      }
      // The download: both tables' records of the four deals, the same hands.
      const href = await page.locator("a.duplicate-records").getAttribute("href");
      const records = await (await fetch(`${base}${href}`)).json();
      if (records.length !== 2 || records[0].deals.length !== 4) throw new Error(`the download holds ${JSON.stringify(records).slice(0, 200)}`);
      for (let d = 0; d < 4; d++) {
        if (JSON.stringify(records[0].deals[d].hands) !== JSON.stringify(records[1].deals[d].hands)) throw new Error(`deal ${d + 1} was dealt differently`);
      }
      // The results page everyone sees: no links to the tables, the names of the people.
      const everyone = await browser.newContext({ locale: language === "ja" ? "ja-JP" : "en-US", viewport: { width: 390, height: 844 } });
      const results = await everyone.newPage();
      await results.goto(`${base}/duplicate/${id}`);
      await results.locator(".duplicate-deal").nth(3).waitFor();
      if ((await results.locator("a.table-link").count()) !== 0) throw new Error("the results page links the tables");
      const names = await results.locator(".duplicate-seat-list").allInnerTexts();
      if (!names[0].includes("Aki") || !names[1].includes("Ben")) throw new Error(`the tables' seats read ${JSON.stringify(names)}`);
      const title = await results.locator("h2").innerText();
      const wantTitle = language === "ja" ? "デュプリケート：" : "Duplicate night: ";
      if (!title.startsWith(wantTitle)) throw new Error(`the results page is titled ${JSON.stringify(title)}`);
      await fitsPhone(results, "the comparison page");
      await shots(results, `duplicate-results-${language}`);
      await results.setViewportSize({ width: 1280, height: 900 });
      await results.screenshot({ path: join(out, `duplicate-results-${language}-desktop.png`), fullPage: true });
      await everyone.close();
      for (const p of players) await p.context.close();
    });
  }
}
