// End-to-end tests of the browser client in headless Chromium (Debian's `chromium`, driven by
// playwright-core): a real `torite serve` on 127.0.0.1 with a temporary SQLite file.
//
//   TORITE_BIN=../target/debug/torite node e2e/run.mjs
//
// Prints one line per test and a closing "N passed, N failed" line; exits non-zero on failure.
// Screenshots go to e2e/out/.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(process.env.TORITE_BIN ?? join(here, "../../target/debug/torite"));
const out = join(here, "out");
mkdirSync(out, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), "torite-e2e-"));
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;

const server = spawn(bin, ["serve", "--addr", `127.0.0.1:${port}`, "--db", `sqlite:${join(tmp, "e2e.db")}`, "--instant-bots"], {
  stdio: ["ignore", "inherit", "inherit"],
});

async function waitForServer() {
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`${base}/api/presets`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start");
}

const browser = await (async () => {
  await waitForServer();
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"],
  });
})();

const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
let passed = 0;
let failed = 0;

async function test(name, f) {
  const context = await browser.newContext({ ...phone, locale: "en-US" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await f(page, context);
    if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAILED - ${name}: ${e?.stack ?? e}`);
    await page.screenshot({ path: join(out, `failed-${name.replace(/\W+/g, "-")}.png`) }).catch(() => {});
  } finally {
    await context.close();
  }
}

/**
 * Plays this page's seat until the game is over (or, with `stopAfter`, once it has played that
 * many cards): select a legal card, then confirm.
 */
async function playToTheEnd(page, { stopAfter = Infinity } = {}) {
  let played = 0;
  for (let step = 0; step < 400; step++) {
    if (await page.locator(".game-over").count()) return;
    if (played >= stopAfter) return;
    const close = page.locator(".modal button.close");
    if (await close.count()) {
      await close.click();
      continue;
    }
    const question = page.locator(".ask [data-action]:not(.confirm)");
    const card = page.locator(".hand button.card:not([disabled])");
    // The table changes under the test as bots play and deals end, so a choice seen a moment ago
    // may be gone: a click that finds nothing is given up quickly and the position looked at again.
    const quick = { timeout: 2000 };
    if ((await page.locator(".ask .prompt").count()) && (await question.count()) && !(await card.count())) {
      // Lot question or joker suit call: take the last choice (pass, or a suit).
      await question.last().click(quick).catch(() => {});
    } else if (await card.count()) {
      if (await card.first().click(quick).then(() => true, () => false)) {
        if (await page.locator("button.confirm").click(quick).then(() => true, () => false)) played++;
      }
    }
    await page.waitForTimeout(50);
  }
  throw new Error("the game did not end");
}

await test("lobby in English and Japanese", async (page) => {
  await page.goto(base);
  await page.getByText("New table").waitFor();
  await page.screenshot({ path: join(out, "lobby-en.png"), fullPage: true });
  await page.locator("button.lang").click();
  await page.getByText("新しいテーブル").waitFor();
  await page.screenshot({ path: join(out, "lobby-ja.png"), fullPage: true });
  const options = await page.locator("#preset option").count();
  if (options !== 12) throw new Error(`${options} presets listed`);
});

let tableUrl = "";
await test("create a table and play a whole game against bots", async (page) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption("mini-misere-4-1989");
  await page.locator("[name=deals]").fill("1");
  await page.locator("#fill").selectOption("heuristic");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
  tableUrl = page.url();
  await page.locator(".seat-box").first().waitFor();
  await page.locator(".hand .card").first().waitFor();
  await page.screenshot({ path: join(out, "table.png"), fullPage: true });
  const seats = await page.locator(".seat-box").count();
  if (seats !== 4) throw new Error(`${seats} seats shown`);
  await playToTheEnd(page);
  await page.locator(".game-over a[download]").waitFor();
  await page.screenshot({ path: join(out, "game-over.png"), fullPage: true });
  const record = await (await fetch(`${base}/api/tables/${tableUrl.split("/").pop()}/record`)).json();
  if (record.ruleset !== "mini-misere-4-1989" && record.ruleset?.base !== "mini-misere-4-1989") {
    throw new Error(`record ruleset ${JSON.stringify(record.ruleset)}`);
  }
});

/** The `torite replay` report of a table's record: the command line's own replay of it. */
async function reportOf(id) {
  const res = await fetch(`${base}/api/tables/${id}/record`);
  if (!res.ok) throw new Error(`record: ${res.status}`);
  const file = join(tmp, `${id}.json`);
  writeFileSync(file, await res.text());
  return JSON.parse(execFileSync(bin, ["replay", file], { encoding: "utf8" }));
}

/** Texts of the elements a locator finds, as numbers. */
async function numbers(locator) {
  return (await locator.allInnerTexts()).map((x) => Number(x.trim()));
}

await test("history page and replay viewer step through a finished game", async (page) => {
  if (!tableUrl) throw new Error("no finished table");
  const id = tableUrl.split("/").pop();
  const report = await reportOf(id);
  const last = report.deals[report.deals.length - 1];
  // The lobby links a finished table to its history.
  await page.goto(base);
  await page.locator(`.table-row[data-table="${id}"] .history-link`).waitFor();
  // From the finished table: the scores it showed, then its history.
  await page.goto(tableUrl);
  await page.locator(".game-over .history-link").waitFor();
  const shown = await numbers(page.locator(".scores tfoot th:not(:first-child)"));
  if (JSON.stringify(shown) !== JSON.stringify(last.totals)) throw new Error(`table totals ${shown} vs ${last.totals}`);
  await page.locator(".modal button.close").click({ timeout: 2000 }).catch(() => {});
  await page.locator(".game-over .history-link").click();
  await page.waitForURL(/\/history$/);
  await page.locator(".history-table").waitFor();
  const rows = await page.locator(".history-table tbody tr").count();
  if (rows !== report.deals.length) throw new Error(`${rows} deals listed, ${report.deals.length} played`);
  const totals = await numbers(page.locator(".history-table tfoot th[data-seat]"));
  if (JSON.stringify(totals) !== JSON.stringify(last.totals)) throw new Error(`history totals ${totals} vs ${last.totals}`);
  await page.locator(".history a.record-link[download]").waitFor();
  await page.screenshot({ path: join(out, "history.png"), fullPage: true });
  // The replay, action by action: every trick's winner as the record's replay has it.
  await page.locator(".history .replay-link").click();
  await page.waitForURL(/\/replay/);
  await page.locator(".replay-nav").waitFor();
  if (await page.locator(".replay-seat .card").count() === 0) throw new Error("no hands shown");
  const winners = [];
  for (let i = 0; i < 500; i++) {
    const complete = page.locator(".trick.complete figure.winning");
    if (await complete.count()) winners.push(Number(await complete.getAttribute("data-seat")));
    const next = page.locator("button[data-nav=next]");
    if (await next.isDisabled()) break;
    const before = await page.locator(".position").innerText();
    await next.click();
    await page.waitForFunction((b) => document.querySelector(".position")?.textContent !== b, before);
  }
  const expected = report.deals.flatMap((d) => d.tricks.filter((t) => t.winner !== null).map((t) => t.winner));
  if (!expected.length) throw new Error("the record has no trick");
  if (JSON.stringify(winners) !== JSON.stringify(expected)) throw new Error(`trick winners ${winners} vs ${expected}`);
  const final = await numbers(page.locator(".deal-scores td.total"));
  if (JSON.stringify(final) !== JSON.stringify(last.totals)) throw new Error(`final totals ${final} vs ${last.totals}`);
  await page.locator(".deal-end .final").waitFor();
  await page.screenshot({ path: join(out, "replay-end.png"), fullPage: true });
  // Keys: back to the start, then trick by trick; the position is in the address.
  await page.keyboard.press("Home");
  await page.waitForURL(/step=0$/);
  await page.keyboard.press("ArrowDown");
  await page.locator(".trick.complete").waitFor();
  const first = Number(await page.locator(".trick.complete figure.winning").getAttribute("data-seat"));
  if (first !== expected[0]) throw new Error(`first trick won by ${first}, not ${expected[0]}`);
  await page.screenshot({ path: join(out, "replay-trick.png"), fullPage: true });
  await page.reload();
  await page.locator(".trick.complete").waitFor();
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => !document.querySelector(".trick.complete"));
});

await test("the ruleset pages offer the printable sheets", async (page) => {
  await page.goto(base);
  await page.locator("#preset").selectOption("mura-4");
  await page.locator("#create .rules-link").click();
  await page.waitForURL(/\/rules\/mura-4$/);
  await page.locator(".sheets").waitFor();
  const links = await page.locator(".sheets a").count();
  if (links !== 12) throw new Error(`${links} sheet links`);
  await page.screenshot({ path: join(out, "rules.png"), fullPage: true });
  const pdf = await page.locator(".sheets tr[data-kind=scores] a[data-format=pdf][data-lang=ja]").getAttribute("href");
  const res = await fetch(base + pdf);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok || res.headers.get("content-type") !== "application/pdf" || bytes.subarray(0, 4).toString() !== "%PDF") {
    throw new Error(`${pdf}: ${res.status} ${res.headers.get("content-type")} ${bytes.subarray(0, 8)}`);
  }
  // HTML in a new tab, in the language asked for.
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    page.locator(".sheets tr[data-kind=rules] a[data-format=html][data-lang=ja]").click(),
  ]);
  await tab.waitForLoadState();
  const title = await tab.title();
  if (!title.includes("ムーラ")) throw new Error(`sheet title ${title}`);
  await tab.close();
  // A finished table's own rules page, from its history.
  if (tableUrl) {
    await page.goto(`${tableUrl}/rules`);
    await page.locator(".sheets").waitFor();
    const href = await page.locator(".sheets tr[data-kind=scorepad] a[data-format=pdf][data-lang=en]").getAttribute("href");
    if (!href.startsWith(`/api/tables/${tableUrl.split("/").pop()}/sheet`)) throw new Error(`table sheet link ${href}`);
    const r = await fetch(base + href);
    if (!r.ok || Buffer.from(await r.arrayBuffer()).subarray(0, 4).toString() !== "%PDF") throw new Error(`${href}: ${r.status}`);
  }
});

/** Creates a one-deal table against random bots from the lobby (in the lobby's language). */
async function createAgainstBots(page, preset, extra = {}) {
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption(preset);
  const deals = page.locator("[name=deals]:not([data-kind])");
  if (await deals.count()) await deals.fill("1");
  if (extra.timer) await page.locator("#timer").fill(String(extra.timer));
  await page.locator("#fill").selectOption("random");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
}

for (const [lang, preset, hand] of [["en", "mini-misere-4", "Your hand"], ["ja", "mini-misere-5", "手札"]]) {
  await test(`reload mid-game and play on to the end (${lang})`, async (page) => {
    await page.goto(base);
    if (lang === "ja") {
      await page.locator("button.lang").click();
      await page.getByText("新しいテーブル").waitFor();
    }
    await createAgainstBots(page, preset);
    await page.locator(".hand .card").first().waitFor();
    await playToTheEnd(page, { stopAfter: 2 });
    const url = page.url();
    await page.reload();
    if (page.url() !== url) throw new Error(`reloaded to ${page.url()}`);
    await page.locator(".seat-box.me").waitFor();
    await page.getByText(hand, { exact: true }).waitFor();
    const htmlLang = await page.evaluate(() => document.documentElement.lang);
    if (htmlLang !== lang) throw new Error(`the page is in ${htmlLang} after the reload`);
    await playToTheEnd(page);
    await page.locator(".game-over .history-link").waitFor();
    if (lang === "ja") await page.getByText("ゲーム終了").first().waitFor();
  });
}

await test("a move timer counts down the seconds of the seat to act", async (page) => {
  await page.goto(base);
  await createAgainstBots(page, "mini-misere-4", { timer: 30 });
  const mine = page.locator(".countdown.mine");
  await mine.waitFor();
  const seconds = async () => Number((await mine.innerText()).match(/(\d+)/)?.[1]);
  const first = await seconds();
  if (!(first > 20 && first <= 30)) throw new Error(`countdown at ${first}`);
  await page.screenshot({ path: join(out, "timer.png"), fullPage: true });
  await page.waitForTimeout(1300);
  const later = await seconds();
  if (!(later < first)) throw new Error(`countdown from ${first} to ${later}`);
  // The game is on: no history or replay yet, for anyone.
  const url = page.url();
  await page.goto(`${url}/history`);
  await page.locator(".not-over").waitFor();
  await page.goto(`${url}/replay`);
  await page.locator(".not-over").waitFor();
  const record = await fetch(`${base}/api/tables/${url.split("/").pop()}/record`);
  if (record.status !== 409) throw new Error(`record of a game in progress: ${record.status}`);
});

await test("declare the Lot with the first card, then play it", async (page) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption("mini-misere-4");
  await page.locator("[name=deals]").fill("1");
  await page.locator("#fill").selectOption("random");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
  const lot = page.locator(".ask button[data-action='lot']");
  await lot.waitFor();
  await lot.click();
  await page.locator(".seat-box.me .badge.lot").waitFor();
  if (await lot.count()) throw new Error("the Lot could be declared twice");
  await page.locator(".hand button.card:not([disabled])").first().click();
  await page.locator("button.confirm").click();
  await playToTheEnd(page);
  await page.screenshot({ path: join(out, "lot-game-over.png"), fullPage: true });
});

await test("a table that does not exist says so", async (page) => {
  await page.goto(`${base}/t/000000000000`);
  await page.locator(".game-over h2").waitFor();
  const text = await page.locator(".game-over h2").innerText();
  if (!text.includes("000000000000")) throw new Error(`shown: ${text}`);
});

await test("a spectator sees no hand", async (page) => {
  if (!tableUrl) throw new Error("no table");
  await page.goto(tableUrl);
  await page.locator(".seat-box").first().waitFor();
  if (await page.locator(".hand").count()) throw new Error("a spectator was shown a hand");
});

await test("host seats a bot, a guest joins by link, the game starts and a Japanese table renders", async (page, context) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption("mura-3");
  await page.locator("#fill").selectOption("");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
  const url = page.url();
  await page.locator(".seat-box[data-seat='1'] button.add-bot").click();
  await page.locator(".seat-box[data-seat='1'].kind-bot").waitFor();
  const guest = await context.browser().newContext({ ...phone, locale: "ja-JP" });
  const gpage = await guest.newPage();
  await gpage.addInitScript(() => localStorage.setItem("torite-name", "Ben"));
  await gpage.goto(url);
  await gpage.locator(".seat-box[data-seat='2'] button.join").click();
  await page.locator(".seat-box[data-seat='2'].kind-human").waitFor();
  await page.locator("button.start").click();
  await gpage.locator(".hand .card").first().waitFor();
  await gpage.getByText("手札").waitFor();
  await gpage.screenshot({ path: join(out, "table-ja.png"), fullPage: true });
  await guest.close();
});

await browser.close();
server.kill("SIGKILL");
rmSync(tmp, { recursive: true, force: true });
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
