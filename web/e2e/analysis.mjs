// Browser tests of the post-game analysis: a finished game analysed from its history page (the
// progress line, then each player's summary), the summary and the replay's value bars checked
// against the analysis's JSON, which must be `torite analyse`'s of the same record and seed; a
// game not over is refused in words. Run by run.mjs.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";

/** A signed value with a true minus sign, as the page writes it. */
function signed(x, places) {
  const text = Math.abs(x).toFixed(places);
  return `${x < 0 && Number(text) !== 0 ? "\u2212" : "+"}${text}`;
}

/** Text without the bidirectional isolation marks around names. */
const plain = (s) => s.replace(/[\u2066-\u2069]/g, "");

export default async function ({ test, base, shots, fitsPhone, playToTheEnd, bin, tmp, join }) {
  let id = "";
  await test("analysis: a finished game analysed, its summary and bars as the JSON says", async (page) => {
    await page.goto(base);
    await page.locator("#name").fill("Aki");
    await page.locator("#preset").selectOption("mini-misere-4");
    await page.locator("[name=deals]").fill("1");
    await page.locator("#fill").selectOption("beginner");
    await page.locator("#create button[type=submit]").click();
    await page.waitForURL(/\/t\/[0-9a-f]+$/);
    id = page.url().split("/").pop();
    // Not over yet: the analysis is refused, in words.
    const early = await fetch(`${base}/api/tables/${id}/analysis`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    if (early.status !== 409 || (await early.json()).code !== "analysis-not-yet") throw new Error(`an analysis mid-game answered ${early.status}`);
    await playToTheEnd(page);
    await page.goto(`${base}/t/${id}/history`);
    await page.locator(".analysis .analyse-button").waitFor();
    await page.locator(".analysis-seat").selectOption("0");
    // The first answer is held back as a server still at work would give it, so that the
    // progress line is seen whatever the server's speed; the page then asks again by itself.
    let held = false;
    await page.route(/\/api\/tables\/[0-9a-f]+\/analysis/, async (route) => {
      if (route.request().method() === "POST" && !held) {
        held = true;
        await route.fulfill({ status: 202, contentType: "application/json", body: JSON.stringify({ status: "running", seat: 0, worlds: 256, done: 3, total: 11 }) });
        await fetch(route.request().url(), { method: "POST", headers: { "Content-Type": "application/json" }, body: route.request().postData() });
      } else {
        await route.continue();
      }
    });
    await page.locator(".analyse-button").click();
    await page.locator(".analysis-status").filter({ hasText: "Analysing… 3 of 11 decisions" }).waitFor({ timeout: 5000 });
    if (!(await page.locator(".analyse-button").isDisabled())) throw new Error("the Analyse button is not disabled while the analysis runs");
    await page.locator(".analysis-summary li").first().waitFor({ timeout: 60000 });
    const res = await fetch(`${base}/api/tables/${id}/analysis?seat=0`);
    if (res.status !== 200) throw new Error(`the analysis answered ${res.status}`);
    const analysis = await res.json();
    // The same as the command line's analysis of the record with the table's seed.
    const file = join(tmp, `${id}-analysis.json`);
    writeFileSync(file, await (await fetch(`${base}/api/tables/${id}/record`)).text());
    const cli = JSON.parse(execFileSync(bin, ["analyse", file, "--seat", "0", "--seed", String(analysis.seed), "--json"], { encoding: "utf8" }));
    if (JSON.stringify(cli) !== JSON.stringify(analysis)) throw new Error("the server's analysis is not torite analyse's");
    const places = analysis.thresholds.blunder / 0.15 >= 10 ? 1 : 2;
    const items = await page.locator(".analysis-summary li").allInnerTexts();
    if (items.length !== analysis.seats.length) throw new Error(`${items.length} summaries for ${analysis.seats.length} in the JSON`);
    analysis.seats.forEach((s, i) => {
      const mistakes = s.mistakes === 1 ? "1 mistake" : `${s.mistakes} mistakes`;
      const want = `Aki: ${mistakes}`;
      const tail = `, ${signed(-s.loss, places)} points in deal ${s.deal + 1}`;
      const text = plain(items[i]);
      if (!text.startsWith(want) || !text.endsWith(tail)) throw new Error(`summary ${JSON.stringify(text)} for ${JSON.stringify(s)}`);
    });
    await fitsPhone(page, "the history's analysis");
    await shots(page, "analysis-history");

    // The replay at a card decision with more than one card: a bar on every legal card.
    const d = analysis.decisions.find((x) => x.actions.length >= 3 && x.actions.every((a) => /^[2-9TJQKA][SHDC]$/.test(a.action)) && x.best !== x.chosen)
      ?? analysis.decisions.find((x) => x.actions.every((a) => /^[2-9TJQKA][SHDC]$/.test(a.action)));
    if (!d) throw new Error("no card decision in the analysis");
    await page.goto(`${base}/t/${id}/replay?deal=${d.deal + 1}&step=${d.index}`);
    await page.locator(".replay-seat .card.analysed").first().waitFor({ timeout: 10000 });
    const bars = await page.locator(`.replay-seat[data-seat="${d.seat}"] .card.analysed`).evaluateAll((cards) =>
      cards.map((c) => ({ card: c.dataset.card, value: Number(c.querySelector(".value-bar").dataset.value), played: c.classList.contains("played"), best: c.classList.contains("best"), width: c.querySelector(".fill").getBoundingClientRect().width })));
    if (bars.length !== d.actions.length) throw new Error(`${bars.length} bars for ${d.actions.length} legal cards`);
    for (const a of d.actions) {
      const bar = bars.find((b) => b.card === a.action);
      if (!bar || bar.value !== a.value) throw new Error(`the bar of ${a.action}: ${JSON.stringify(bar)}, the JSON ${a.value}`);
      if (bar.played !== (a.action === d.chosen) || bar.best !== (a.action === d.best)) throw new Error(`${a.action} marked ${JSON.stringify(bar)}`);
      if (!(bar.width > 0)) throw new Error(`the bar of ${a.action} is not drawn`);
    }
    const line = plain(await page.locator(".analysis-decision").innerText());
    if (!line.startsWith("Aki chose")) throw new Error(`the decision reads ${JSON.stringify(line)}`);
    if (d.best !== d.chosen && !line.includes(`${d.loss.toFixed(places)} points lost`)) throw new Error(`the decision reads ${JSON.stringify(line)} for a loss of ${d.loss}`);
    const deal = plain(await page.locator(".replay-analysis .analysis-summary li").first().innerText());
    if (!deal.endsWith(`points in deal ${d.deal + 1}`)) throw new Error(`the replay's summary reads ${JSON.stringify(deal)}`);
    await fitsPhone(page, "the replay's analysis");
    await shots(page, "analysis-replay");
    // In Japanese too: the same bars, words from the catalog.
    await page.locator("button.lang").click();
    await page.waitForFunction(() => document.documentElement.lang === "ja");
    await page.locator(".analysis-decision").filter({ hasText: "の選択は" }).waitFor();
    const verdicts = { best: "最善", inaccuracy: "疑問手", mistake: "悪手", blunder: "大悪手" };
    const ja = await page.locator(".analysis-decision").innerText();
    const word = d.verdict === "best" && d.best !== d.chosen ? "誤差の範囲内" : verdicts[d.verdict];
    if (!ja.includes(word)) throw new Error(`the Japanese decision reads ${JSON.stringify(ja)}`);
    if ((await page.locator(".card.analysed").count()) !== d.actions.length) throw new Error("the bars are gone in Japanese");
    await page.locator("button.lang").click();
    await page.waitForFunction(() => document.documentElement.lang === "en");
  });

  await test("analysis: a decision that is not a card (the Lot) is listed with its bars in words", async (page) => {
    if (!id) throw new Error("no analysed table (the test before failed)");
    const replay = await (await fetch(`${base}/api/tables/${id}/replay`)).json();
    const seat = replay.deals[0].first;
    // The analysis as the server would give it for a Lot question at the first step.
    const fake = {
      ruleset: "mini-misere-4", worlds: 256, seed: 1, thresholds: { inaccuracy: 0.24, mistake: 0.72, blunder: 1.8 },
      decisions: [{ deal: 0, index: 0, trick: 0, seat, chosen: "lot", best: "pass", loss: 2.5, loss_stderr: 0.1, verdict: "blunder", method: "solver", worlds: 256,
        actions: [{ action: "lot", value: -1.5, stderr: 0.1 }, { action: "pass", value: 1.0, stderr: 0.05 }], exact: null }],
      seats: [{ deal: 0, seat, decisions: 1, loss: 2.5, inaccuracies: 0, mistakes: 0, blunders: 1, score: 1, double_dummy: null }],
    };
    await page.route(/\/api\/tables\/[0-9a-f]+\/analysis/, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(fake) }));
    await page.goto(`${base}/t/${id}/replay?deal=1&step=0`);
    await page.locator(".analysis-actions li").first().waitFor();
    const items = await page.locator(".analysis-actions li").allInnerTexts();
    if (items.length !== 2 || !items[0].startsWith("Declare the Lot") || !items[1].startsWith("Pass")) throw new Error(`the choices read ${JSON.stringify(items)}`);
    if (!(await page.locator(".analysis-actions li.played[data-action=lot] .value-bar").count())) throw new Error("the Lot is not marked played");
    if (!(await page.locator(".analysis-actions li.best[data-action=pass] .value-bar").count())) throw new Error("the pass is not marked best");
    const line = plain(await page.locator(".analysis-decision").innerText());
    if (!line.includes("chose Declare the Lot (\u22121.5); best was Pass (+1.0), 2.5 points lost: blunder")) throw new Error(`the decision reads ${JSON.stringify(line)}`);
    if (!line.startsWith(plain(replay.players[seat]))) throw new Error(`the decision reads ${JSON.stringify(line)} for seat ${seat}`);
    const summary = plain(await page.locator(".replay-analysis .analysis-summary li").innerText());
    if (!summary.endsWith("0 mistakes, 1 blunder, \u22122.5 points in deal 1")) throw new Error(`the summary reads ${JSON.stringify(summary)}`);
    if ((await page.locator(".card.analysed").count()) !== 0) throw new Error("a card is marked for a Lot question");
    await fitsPhone(page, "a Lot question's analysis");
    await shots(page, "analysis-lot");
  });
}
