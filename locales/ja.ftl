# torite — 日本語メッセージ。端末とブラウザで同じカタログを使う。

app-title = torite（トリテ）
lang-name = 日本語

## 席とスート
seat = { $seat }番席
seat-you = あなた
suit-S = スペード
suit-H = ハート
suit-D = ダイヤ
suit-C = クラブ
joker = ジョーカー

## テーブル
deal-header = 第{ $number }ディール — ディーラー: { $dealer }
you-are = あなたは{ $seat }です。
trump = 切札: { $trump }
trump-none = 切札なし
trump-joker = ジョーカーだけが切札
lot-declared = ロット宣言: { $seats }
lot-none = ロット宣言なし
leader = { $seat }のリード
winning = 勝ち札: { $seat }
tricks-won = トリック
card-points = 得点札
score = 得点
total = 累計
hand = 手札
trick = 第{ $number }トリック
last-trick = 直前のトリック
last-trick-none = まだ終わったトリックはありません。
held-points = 持ち越し点: { $count }

## 行動
plays = { $seat }: { $card }
leads-card = { $seat }が{ $card }をリード
declares-lot = { $seat }がロットを宣言！
passes = { $seat }はパス
calls-suit = { $seat }は{ $suit }を指定
trick-won-by = { $seat }がトリックを取った
action-lot = ロットを宣言
action-pass = パス
action-call = { $suit }を指定

## 質問
lot-question = ロット（全トリック獲得）を宣言しますか？
lot-question-first-card = 最初のカードを出すときにロットを宣言できます。
call-question = ジョーカーをリードしました。フォローすべきスートを指定してください。
your-turn = あなたの番です。
choose = 行動を選んでください（{ $keys }）:
legal-actions = 出せるもの: { $actions }
thinking = { $seat }が考えています…
hint = ヒント: { $action }

## 出せない理由
illegal = { $action }は出せません: { $reason }
err-deal-over = このディールは終わっています
err-not-in-hand = { $card }は手札にありません
err-must-follow = { $suit }をフォローしなければなりません
err-undertrump = フォローできるときは{ $card }より弱い切札は出せません（アンダートランプ禁止）
err-must-play-trump = 切札がリードされました。切札（{ $suit }）を出さなければなりません
err-must-beat = 出せるなら、今いちばん強い{ $card }に勝つカードを出さなければなりません
err-must-trump = フォローできず切札を持っているので、切札（{ $suit }）を出さなければなりません
err-joker-only-void = ジョーカーは{ $suit }を持っていないときだけ出せます
err-must-call = 先にジョーカーのスートを指定してください
err-no-call = スートの指定はジョーカーをリードした直後だけです
err-must-answer-lot = 先にロットの質問に答えてください（ロットかパス）
err-lot-not-now = 今はロットを宣言できません
err-pass-not-now = ロットの質問はされていません
unknown-input = 「{ $input }」は分かりません。番号、AS や 10H のようなカード、lot、pass、?（ヘルプ）、q（終了）を入力してください。

## ディールとゲームの終わり
deal-summary = 第{ $number }ディール終了
rule-applied = 採点: { $rule }
game-over = ゲーム終了
winner = 勝者: { $seats }
winners = 勝者（同点）: { $seats }
saved-to = 棋譜を保存しました: { $path }
resume-with = 続きから: torite play --resume { $path }
press-key = 何かキーを押してください
quit-confirm = 終了しますか？ゲームは保存され、続きから再開できます。(y/n)

## 採点ルール
rule-trick-table = 取ったトリック数による得点
rule-lot-succeeded = ロット成功
rule-lot-failed = ロット失敗
rule-all-tricks = 全トリックを取った人がいる
rule-hundred-and-no-trick = 100点以上の人と0トリックの人がいる
rule-no-trick = トリックを1つも取らなかった人がいる
rule-hundred = 100点以上取った人がいる
rule-two-equal = 2人が同点
rule-highest-and-lowest = 最高点と最低点の人が勝ち、真ん中が負け
rule-all-points = 1人が全得点を取った
rule-three-equal = 3人が同点：カードを引いて決める
rule-two-lowest-equal = 下位2人が同点
rule-two-highest-equal = 上位2人が同点
rule-two-middle-equal = 中位2人が同点
rule-all-differ = 全員の点数が異なる
rule-all-but-one-equal = 1人を除いて全員同点
rule-plus-minus = 最高点と最低点の人が1点ずつ
rule-own-points = 最高点と最低点の人が自分の得点札の点を得る
rule-own-points-two-equal = 2人が同点：残る1人が自分の得点札の点を得る
rule-penalty = 失点：取ったトリック数＋1（免除点に達すれば0）

## ヘルプ
help-keys = ←/→ 選択 · Enter 出す · 1–9 直接 · ? ルール · h ヒント · l 直前 · q 終了
help-plain = 行動の番号かコード（AS, 10H, lot, pass, call:S）を入力。? ルール、h ヒント、l 直前のトリック、q 終了。
rules-title = ルール: { $name }

## 得点記録（実物のカードで遊んだゲーム）
score-title = 得点表: { $name }
score-help = ディールごとに結果を入力します。数字は空白で区切り、席順に1人1つ。u で直前のディールを取り消し、q で保存して終了。
score-deal = 第{ $number }ディール（ディーラー: { $dealer }）
ask-lot = ロット宣言は？宣言した席の番号、なければ - :
ask-lot-winner = 宣言者が全トリックを取りましたか？その席の番号、取れなかったら - :
ask-tricks = 各席の取ったトリック数（{ $count }つの数、合計{ $total }）:
ask-points = 各席の得点札の点（{ $count }つの数、合計{ $total }）:
ask-draw = { $seats }が同点です。いちばん強いカードを引いたのはどの席？
bad-entry = 受け付けられません: { $why }
bad-numbers = { $count }つの整数を入力してください
undone = 第{ $number }ディールを取り消しました。
sheet-saved = 得点表を保存しました: { $path }
