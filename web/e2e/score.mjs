// Browser tests of the scorekeeper (/score/new, /score/{id}, /score/{id}/view): a whole game of
// each family (Mini Misère, Mittlere Jass, Mura) entered on a 390 px page, every total checked
// against the rules' working (RULES.md; the same sheets as crates/server/tests/api/scoresheets.rs),
// undo after the end, and the read-only view following the sheet live. Run by run.mjs.

import { readFile } from "node:fs/promises";

/** Each player's running total in the last row of the sheet, and the totals row. */
async function lastTotals(page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll(".score-deal")];
    const last = rows[rows.length - 1];
    return {
      deals: rows.length,
      last: last ? [...last.querySelectorAll(".score-total")].map((e) => Number(e.textContent)) : [],
      final: [...document.querySelectorAll(".score-final")].map((e) => Number(e.textContent)),
    };
  });
}

/** Creates a sheet from the header's "Keep score" link; the page then shows it. */
async function create(page, base, preset, names) {
  await page.goto(base);
  await page.locator("a.keep-score").click();
  await page.locator("#score-preset").selectOption(preset);
  for (let i = 0; i < names.length; i++) await page.locator(`[name=player-${i}]`).fill(names[i]);
  await page.locator("#score-create button[type=submit]").click();
  await page.waitForURL(/\/score\/[0-9a-f]+$/);
  await page.locator(".score-sheet").waitFor();
}

/** Enters one deal: `lot` [declarers, winner or null], `tricks` or the Jass `ticks` ({none:
 * [players who took no trick], every: the one who took every trick or null}), `points` (the
 * last left out where the page offers it). */
async function enter(page, { lot, tricks, ticks, points, offer }) {
  const before = (await lastTotals(page)).deals;
  if (lot) {
    for (const d of lot[0]) await page.locator(`[name=declare-${d}]`).check();
    await page.locator("[name=lot-winner]").selectOption(lot[1] === null ? "" : String(lot[1]));
  }
  if (tricks) for (let i = 0; i < tricks.length; i++) await page.locator(`[name=tricks-${i}]`).fill(String(tricks[i]));
  if (ticks) {
    for (const s of ticks.none) await page.locator(`[name=no-trick-${s}]`).check();
    if (ticks.every !== null) await page.locator(`[name=every-trick-${ticks.every}]`).check();
  }
  if (points) {
    const n = offer ? points.length - 1 : points.length;
    for (let i = 0; i < n; i++) await page.locator(`[name=points-${i}]`).fill(String(points[i]));
    if (offer) {
      const offered = await page.locator(`[name=points-${points.length - 1}]`).inputValue();
      if (offered !== String(points[points.length - 1])) throw new Error(`the last points offered are ${offered}, not ${points[points.length - 1]}`);
    }
  }
  await page.locator("button.add-deal").click();
  await page.waitForFunction((n) => document.querySelectorAll(".score-deal").length === n + 1, before, { timeout: 5000 })
    .catch(async () => { throw new Error(`deal ${before + 1} not added: ${await page.locator(".score-error").allInnerTexts()}`); });
}

async function expectTotals(page, want, where) {
  const got = await lastTotals(page);
  if (JSON.stringify(got.last) !== JSON.stringify(want) || JSON.stringify(got.final) !== JSON.stringify(want)) {
    throw new Error(`${where}: totals ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
}

async function expectStatus(page, text) {
  await page.waitForFunction((t) => (document.querySelector(".score-status")?.textContent ?? "").includes(t), text, { timeout: 5000 })
    .catch(async () => { throw new Error(`the status is ${JSON.stringify(await page.locator(".score-status").innerText())}, not ${text}`); });
}

export default async function scoreTests({ test, base, shots, fitsPhone, out, join }) {
  await test("scorekeeper: a whole Mini Misère game, undo after the end, the live read-only view", async (page, context) => {
    await create(page, base, "mini-misere-4", ["Aki", "Ben", "Chie", "Dan"]);
    const viewUrl = await page.locator("a.view-link").getAttribute("href");
    const viewer = await context.newPage();
    await viewer.goto(`${base}${viewUrl}`);
    await viewer.locator(".score-sheet").waitFor();
    if (await viewer.locator("button.add-deal").count()) throw new Error("the read-only view can enter deals");
    const deals = [
      [{ tricks: [2, 1, 3, 0] }, [2, 1, 3, 6]],
      [{ lot: [[2], 2] }, [2, 1, 15, 6]], // Chie's Lot: 12
      [{ lot: [[0, 3], null] }, [2, 7, 21, 6]], // failed: 6 to each non-declarer
      [{ tricks: [0, 0, 2, 4] }, [8, 13, 23, 14]],
      [{ tricks: [0, 0, 1, 5] }, [14, 19, 24, 24]],
      [{ lot: [[0], null] }, [14, 25, 30, 30]], // a shared lead plays on
      [{ tricks: [0, 3, 2, 1] }, [20, 28, 32, 31]],
    ];
    for (const [i, [facts, totals]] of deals.entries()) {
      await enter(page, facts);
      await expectTotals(page, totals, `deal ${i + 1}`);
    }
    await expectStatus(page, "Winner: Chie");
    // The read-only view has followed every deal by itself.
    await viewer.waitForFunction(() => document.querySelectorAll(".score-deal").length === 7, null, { timeout: 5000 });
    await expectTotals(viewer, [20, 28, 32, 31], "the read-only view");
    await fitsPhone(page, "the finished Mini Misère sheet");
    await shots(page, "score-mini-misere");
    // Undo after the end: the last deal back, and the view follows.
    await page.locator("button.undo-last").click();
    await page.waitForFunction(() => document.querySelectorAll(".score-deal").length === 6);
    await expectTotals(page, [14, 25, 30, 30], "after undo");
    await expectStatus(page, "Deal 7 next");
    await viewer.waitForFunction(() => document.querySelectorAll(".score-deal").length === 6, null, { timeout: 5000 });
    await shots(viewer, "score-view");
    // A deal that does not add up is refused with the reason, and nothing is added.
    await page.locator("[name=tricks-0]").fill("3");
    for (let i = 1; i < 4; i++) await page.locator(`[name=tricks-${i}]`).fill("2");
    await page.locator("button.add-deal").click();
    await page.locator(".score-error", { hasText: "the tricks must add up to 6; these add up to 9" }).waitFor({ timeout: 5000 });
    if ((await lastTotals(page)).deals !== 6) throw new Error("a refused deal was added");
    await viewer.close();
  });

  await test("scorekeeper: a whole Mittlere Jass game in Japanese, by ticks, the last points offered, strokes and circles", async (page) => {
    await page.goto(base);
    await page.locator("button.lang").click();
    await page.waitForFunction(() => document.documentElement.lang === "ja" && document.body.dataset.ready);
    await create(page, base, "mittlere-jass", ["明", "Ben", "千恵"]);
    const deals = [
      [[12, 0, 0], [157, 0, 0], [2, -1, -1]],
      [[5, 7, 0], [60, 97, 0], [3, 0, -3]],
      [[2, 8, 2], [20, 110, 27], [4, -2, -2]],
      [[4, 4, 4], [50, 50, 57], [3, -3, 0]],
      [[3, 5, 4], [30, 70, 57], [4, -2, -2]],
      [[4, 4, 4], [40, 60, 57], [5, -1, -4]],
      [[0, 6, 6], [0, 80, 77], [3, 0, -3]],
      [[6, 6, 0], [100, 57, 0], [4, 1, -5]],
      [[1, 5, 6], [52, 52, 53], [3, 0, -3]],
      [[5, 3, 4], [99, 28, 30], [4, 1, -5]],
      [[0, 0, 12], [0, 0, 157], [3, 0, -3]],
      [[4, 4, 4], [45, 45, 67], [2, -1, -1]],
    ];
    for (const [i, [tricks, points, totals]] of deals.entries()) {
      // As on the paper sheet: only who took no trick and who took every trick is ticked.
      const ticks = { none: tricks.flatMap((t, s) => (t === 0 ? [s] : [])), every: tricks.findIndex((t) => t === 12) };
      if (ticks.every < 0) ticks.every = null;
      if (ticks.every !== null) ticks.none = [];
      await enter(page, { ticks, points, offer: true });
      await expectTotals(page, totals, `deal ${i + 1}`);
    }
    await expectStatus(page, "勝者: 明");
    const marks = await page.locator(".score-deal").last().locator(".score-marks").allInnerTexts();
    if (marks[0] !== "|×8 ○×6") throw new Error(`the strokes and circles are ${JSON.stringify(marks)}`);
    await fitsPhone(page, "the finished Jass sheet");
    await shots(page, "score-jass");
    // Undo of deal 12 after the end, entered again differently.
    await page.locator(".undo-deal[data-deal='12']").click();
    await page.waitForFunction(() => document.querySelectorAll(".score-deal").length === 11);
    await enter(page, { ticks: { none: [], every: 0 }, points: [157, 0, 0], offer: true });
    await expectTotals(page, [5, -1, -4], "deal 12 again");
  });

  await test("scorekeeper: Molotow's three-way tie asks who drew the highest card, keeping the deal's answers", async (page) => {
    await create(page, base, "molotow-jass", ["Aki", "Ben", "Chie", "Dan"]);
    const tricks = [3, 2, 2, 2];
    const points = [40, 39, 39, 39];
    void tricks; // everybody took a trick: nothing to tick
    for (let i = 0; i < 3; i++) await page.locator(`[name=points-${i}]`).fill(String(points[i]));
    await page.locator("button.add-deal").click();
    await page.locator(".score-error", { hasText: "Ben, Chie, Dan tie: say which of them drew the highest card" }).waitFor({ timeout: 5000 });
    if (await page.locator("[name=points-3]").inputValue() !== "39") throw new Error("the deal's answers were lost");
    await page.locator("[name=draw]").selectOption({ label: "Chie" });
    await page.locator("button.add-deal").click();
    await page.waitForFunction(() => document.querySelectorAll(".score-deal").length === 1, null, { timeout: 5000 });
    // The fourth +1, the tied seat that drew highest −1, the others 0.
    await expectTotals(page, [1, 0, -1, 0], "the tie");
    await fitsPhone(page, "the Molotow sheet");
  });

  await test("scorekeeper: a whole Mura game, the exemption shown, undo of the first deal after the end", async (page) => {
    await create(page, base, "mura-4", ["Aki", "Ben", "Chie", "Dan"]);
    const deals = [
      [[3, 2, 2, 2], [6, 5, 3, 2], [0, 0, 3, 3], [0, 1]],
      [[0, 4, 3, 2], [0, 8, 6, 2], [1, 0, 3, 6], [1, 2]],
      [[5, 0, 2, 2], [3, 0, 9, 8], [7, 1, 3, 6], [2, 3]],
      [[1, 1, 1, 6], [1, 1, 1, 14], [9, 3, 5, 6], [3]],
      [[3, 1, 3, 2], [3, 2, 8, 4], [13, 5, 5, 6], [2, 3]],
    ];
    for (const [i, [tricks, points, totals, exempt]] of deals.entries()) {
      await enter(page, { tricks, points });
      await expectTotals(page, totals, `deal ${i + 1}`);
      const shown = await page.locator(".score-deal").last().evaluate((row) =>
        [...row.querySelectorAll("td")].map((td, s) => (td.classList.contains("exempt") ? s : -1)).filter((s) => s >= 0));
      if (JSON.stringify(shown) !== JSON.stringify(exempt)) throw new Error(`deal ${i + 1}: exempt ${JSON.stringify(shown)}, expected ${JSON.stringify(exempt)}`);
    }
    await expectStatus(page, "Winners (shared): Ben, Chie");
    // Each total is shown as the penalty chips the club takes, in stacks of five.
    const chips = await page.locator(".score-chips").evaluateAll((all) => all.map((c) => [c.querySelectorAll(".chip").length, c.getAttribute("aria-label")]));
    if (JSON.stringify(chips) !== JSON.stringify([[13, "13 penalty chips"], [5, "5 penalty chips"], [5, "5 penalty chips"], [6, "6 penalty chips"]])) throw new Error(`chips ${JSON.stringify(chips)}`);
    await shots(page, "score-mura");
    await page.locator(".undo-deal[data-deal='1']").click();
    await page.waitForFunction(() => document.querySelectorAll(".score-deal").length === 4);
    await expectTotals(page, [13, 5, 2, 3], "without deal 1");
    await expectStatus(page, "Winner: Chie");
    await fitsPhone(page, "the Mura sheet");
    // The printable score sheet: the game so far written into the club's sheet.
    const printHref = await page.locator("a.print").getAttribute("href");
    const printed = await (await fetch(`${base}${printHref}`)).text();
    if (!printed.includes('<strong class="kept-name">Ben</strong>')) throw new Error("the printable sheet has no names");
    // The same sheet as a PDF to keep, downloaded by its link.
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("a.pdf").click()]);
    const pdf = await readFile(await download.path());
    if (pdf.subarray(0, 4).toString() !== "%PDF") throw new Error("the PDF link gave no PDF");
    if (!download.suggestedFilename().endsWith(".pdf")) throw new Error(`the PDF is named ${download.suggestedFilename()}`);
    const sheetPage = await page.context().newPage();
    await sheetPage.goto(`${base}${printHref}`);
    await sheetPage.screenshot({ path: join(out, "score-sheet-printable.png"), fullPage: true });
    await sheetPage.close();
    // The page itself prints without its forms.
    await page.emulateMedia({ media: "print" });
    if (await page.locator(".score-tools").isVisible()) throw new Error("the tools are printed");
    await page.screenshot({ path: join(out, "score-print.png"), fullPage: true });
    await page.emulateMedia({ media: "screen" });
  });
}
