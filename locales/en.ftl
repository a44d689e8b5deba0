# torite — English messages. The same catalog serves the terminal and the browser.

app-title = torite
lang-name = English

## Seats and suits
seat = Seat { $seat }
seat-you = You
suit-S = spades
suit-H = hearts
suit-D = diamonds
suit-C = clubs
joker = joker

## Table
deal-header = Deal { $number } — dealer: { $dealer }
you-are = You play { $seat }.
trump = Trump: { $trump }
trump-none = No trump
trump-joker = The joker is the only trump
lot-declared = Lot declared by { $seats }
lot-none = No Lot
leader = { $seat } leads
winning = winning: { $seat }
tricks-won = Tricks
card-points = Points
score = Score
total = Total
hand = Your hand
trick = Trick { $number }
last-trick = Last trick
last-trick-none = No trick has been completed yet.
held-points = Held-over points: { $count }

## Actions
plays = { $seat } plays { $card }
leads-card = { $seat } leads { $card }
declares-lot = { $seat } declares the Lot!
passes = { $seat } passes
calls-suit = { $seat } names { $suit }
says-joker-win = { $seat } says the joker wins
says-joker-lose = { $seat } says the joker loses
trick-won-by = { $seat } wins the trick
action-lot = Declare the Lot
action-pass = Pass
action-call = Name { $suit }
action-joker-win = The joker wins
action-joker-lose = The joker loses

## Questions
lot-question = Declare the Lot (win every trick)?
lot-question-first-card = You may declare the Lot as you play your first card.
call-question = You led the joker: name the suit the others must follow.
joker-question = You played the joker last: say whether it wins or loses the trick.
your-turn = Your turn.
choose = Your move ({ $keys }):
legal-actions = Legal: { $actions }
thinking = { $seat } is thinking…
hint = Hint: { $action }

## Illegal actions (why a card cannot be played)
illegal = { $action } cannot be played: { $reason }
err-deal-over = the deal is over
err-not-in-hand = { $card } is not in your hand
err-must-follow = you must follow { $suit }
err-undertrump = you may not undertrump { $card } while you can follow suit
err-must-play-trump = trump was led: you must play a trump ({ $suit })
err-must-beat = you must beat { $card }, the best card so far, when you can
err-must-trump = you cannot follow and hold a trump: you must play a trump ({ $suit })
err-joker-only-void = the joker may be played only when you have no { $suit }
err-must-call = name a suit for the joker first
err-no-call = a suit is named only right after leading the joker
err-must-say-joker = the joker was played last: first say whether it wins or loses the trick
err-no-joker-say = whether the joker wins or loses is said only right after it is played as the last card of a trick
err-must-answer-lot = answer the Lot question first: Lot or pass
err-lot-not-now = the Lot cannot be declared now
err-pass-not-now = no Lot question is being asked
unknown-input = Not understood: { $input }. Type a number, a card code such as AS or 10H, lot, pass, ? for help or q to quit.

## End of deal and game
deal-summary = End of deal { $number }
rule-applied = Scoring: { $rule }
game-over = Game over
winner = Winner: { $seats }
winners = Winners (shared): { $seats }
saved-to = Game record saved to { $path }
resume-with = Resume with: torite play --resume { $path }
press-key = Press any key to continue
quit-confirm = Quit? The game is saved and can be resumed. (y/n)

## Scoring rules
rule-trick-table = points by tricks won
rule-lot-succeeded = the Lot succeeded
rule-lot-failed = the Lot failed
rule-all-tricks = a seat won every trick
rule-hundred-and-no-trick = one seat took 100 or more and another no trick
rule-no-trick = a seat won no trick
rule-hundred = a seat took 100 points or more
rule-two-equal = two seats have equal points
rule-highest-and-lowest = highest and lowest score, the middle loses
rule-all-points = a seat took all the points
rule-three-equal = three seats have equal points: the draw decides
rule-two-lowest-equal = the two lowest are equal
rule-two-highest-equal = the two highest are equal
rule-two-middle-equal = the two middle seats are equal
rule-all-differ = all points differ
rule-all-but-one-equal = all seats but one have equal points
rule-plus-minus = highest and lowest score one each
rule-own-points = highest and lowest score their card points
rule-own-points-two-equal = two seats equal: the third scores its card points
rule-penalty = penalty: tricks won plus one, unless exempt

## Help
help-keys = ←/→ Enter play · { $numbers } pick · ? help · h hint · l last · u undo · q quit
help-plain = Type the number of an action or its code (AS, 10H, lot, pass, call:S). ? rules, h hint, l last trick, s scores so far, u undo, q quit. A move that is the only one possible is played for you.
screen-too-small = This window is { $width }×{ $height }; the game needs at least { $min-width }×{ $min-height }. Make it larger, or play line by line with: torite play --plain. (q, then y, quits.)
forced-move = Only one move is possible: { $action }, played for you.
quit-confirm-plain = Quit now? The game is saved and can be resumed (y/n):
trump-set-by = { $seat } played off suit and set the trump. { $trump }
scores-so-far = Totals after { $deals ->
    [one] 1 deal
   *[other] { $deals } deals
  }: { $totals }
rules-title = Rules: { $name }

## torite play: undo and confirmations
play-undone = Taken back: your last move, and the bots' moves after it.
undo-none = Nothing of yours to take back in this deal.
lot-confirm = Declare the Lot and win every trick?
lot-confirm-keys = y or Enter: declare · any other key: not now
quit-title = Quit
keys-title = Keys
keys-choose = ←/→ choose a card or an answer; Enter or Space plays it.
keys-numbers = 1 to 9 pick the first to ninth choice at once; 0, - and = the tenth, eleventh and twelfth.
keys-other = ? this help · h a hint · l the last trick · u take back your last move · q quit (the game is saved).
keys-marks = On the table: ★ the card winning the trick so far, ← the card that led it, (D) the dealer, LOT a Lot declarer.
play-deal-header-of = Deal { $number } of { $deals } — dealer: { $dealer }
play-penalty = Penalty
play-exempt = exempt

## Score keeping (games played with real cards)
score-title = Score sheet: { $name }
score-help = Enter each deal's facts. Numbers are separated by spaces, one per seat in seat order; seats are entered by number or by name. r starts this deal again, u takes back the last deal (also after the game has ended), q saves and quits.
score-deal = Deal { $number } (dealer: { $dealer })
ask-lot = Lot declared? The declaring seats, or - for none:
ask-lot-winner = Did a declarer win every trick? Its seat, or - for no:
ask-tricks = Tricks won per seat ({ $count } numbers adding up to { $total }):
ask-every-trick = Did one seat take every trick? Its seat, or - for no:
ask-no-trick = Which seats took no trick? The seats, or - for none:
ask-points = Card points per seat ({ $count } numbers adding up to { $total }):
ask-points-last = Card points per seat ({ $count } numbers, total { $total }; the last may be left out):
ask-draw = { $seats } tie: which of them drew the highest card?
bad-entry = Not accepted: { $why }
score-players-ask = Players' names in seat order, separated by commas ({ $count } names), or Enter to keep seat numbers:
score-players = Seats: { $list }
score-name-count = expected { $count } names, one per seat; got { $given }
score-name-empty = the name for { $seat } is empty
score-name-long = “{ $name }” is too long: a name has at most { $max } characters
score-name-control = the name for { $seat } holds a control character
score-name-reserved = “{ $name }” cannot be a name: seats are also entered by number, - means none, and u, r and q are commands
score-name-twice = “{ $name }” is given twice: each player needs a name of their own
score-no-seat = there is no seat “{ $token }”: the seats are 0 to { $last }
score-no-seat-named = there is no seat or player “{ $token }”: the seats are 0 to { $last } ({ $names })
score-seat-twice = { $seat } is named twice
score-empty-lot = enter the seats that declared the Lot, or - if nobody did
score-empty-winner = enter the declarer who won every trick, or - if none did
score-one-winner = only one seat can win every trick
score-empty-every-trick = enter the seat that took every trick, or - if nobody did
score-one-every-trick = only one seat can take every trick
score-empty-no-trick = enter the seats that took no trick, or - if every seat took at least one
score-no-trick-too-many = if { $count } seats took no trick, the last one took every trick: say so at the first question
tick-every = all
tick-some = 1+
score-not-declarer = { $seat } did not declare the Lot (declared: { $seats })
score-not-number = “{ $token }” is not a whole number of 0 or more
score-numbers-count = expected { $count } whole numbers, one per seat; got { $given }
score-points-count = expected { $count } whole numbers, one per seat (or { $less }, and the last is worked out); got { $given }
score-points-over = the first { $count } seats' points add up to { $given }, more than the deal's { $total }
score-points-last = { $seat }: { $points } (to make { $total })
score-empty-draw = enter the tied seat that drew the highest card
score-not-tied = { $seat } is not one of the tied seats ({ $seats })
score-one-draw = only one seat drew the highest card
score-nothing-to-undo = there is no deal to take back yet
score-over-ask = u takes back the last deal; Enter saves and quits:
score-over-refused = the game is over: u takes back the last deal, Enter or q saves and quits
undone = Deal { $number } removed.
sheet-saved = Score sheet saved to { $path }

## Printable sheets (torite sheet): rules summary, score card, score sheet
sheet-kicker-rules = Rules at a glance
sheet-kicker-scores = Score card
sheet-kicker-scorepad = Score sheet
sheet-house-rules = House rules — { $options }
sheet-house-option = { $label }: { $value }
sheet-footer = Made with torite · { $ruleset }
sheet-footer-house = Made with torite · house rules based on { $base }
sheet-sec-players = Players and cards
sheet-sec-ranks = Card ranks
sheet-sec-play = Play
sheet-sec-lot = The Lot
sheet-sec-card-points = Card points
sheet-sec-scoring = Scoring
sheet-sec-penalty = Penalty points
sheet-sec-end = End of the game
sheet-players = { $players } players.
sheet-deck = { $count } cards: { $ranks } in each of the four suits (♠ ♥ ♦ ♣).
sheet-deck-joker = { $count } cards: { $ranks } in each of the four suits (♠ ♥ ♦ ♣), and a joker.
sheet-deal-clockwise = Deal out all the cards, { $count } to each player. Play goes clockwise: the player on the dealer's left leads to the first trick and deals the next deal.
sheet-deal-counterclockwise = Deal out all the cards, { $count } to each player. Play goes counter-clockwise: the player on the dealer's right leads to the first trick and deals the next deal.
sheet-joker-name = Joker
sheet-rank-order = In each suit, high to low: { $order }.
sheet-rank-trump-order = In the trump suit, high to low: { $order }.
sheet-rank-ten-nine = Mind the order: the 10 and the 9 rank above the ace.
sheet-led-low-wins = A led { $low } beats every card of its suit, so its leader wins the trick. A { $low } that is not led is the lowest card of its suit.
sheet-low-no-power = The { $low } has no special power: it is always the lowest card of its suit.
sheet-joker-free-follow = Joker, when led: it wins the trick, and every other player may play any card. When not led: it may be played only by a player with no card of the led suit, and it always loses.
sheet-joker-names-suit = Joker, when led: it wins the trick, and its leader names a suit, which the others must follow when they can. When not led: it may be played at any time, even by a player who could follow suit, and it always loses.
sheet-joker-highest-trump = The joker is the highest trump. Played before a trump suit exists, it leaves the deal with no trump suit, the joker being the only trump: led, it wins the trick and the others may play any card (which sets no trump); played by a player who cannot follow, it wins the trick.
sheet-joker-last-says = Joker, when led: it wins the trick, and every other player may play any card. When not led: it may be played only by a player with no card of the led suit. Played second, it loses. Played last in the trick, its player says at once whether it wins the trick or loses it (then the highest card of the led suit wins).
sheet-no-trumps = There are no trumps.
sheet-trump-first-off-suit = There is no trump when play starts. The first card played that does not follow suit makes its suit trump for the rest of the deal, already in the trick where it is played.
sheet-follow-must = Follow suit when you can; otherwise play any card.
sheet-follow-jass-intro = Until trump exists, follow suit when you can; otherwise play any card. Once trump exists:
sheet-follow-jass-1 = A plain suit is led and you hold it: follow suit or play a trump, but never a trump lower than one already in the trick.
sheet-follow-jass-2 = A plain suit is led and you hold none of it: play any card, a lower trump included.
sheet-follow-jass-3 = Trump is led: play a trump if you hold one (any trump); otherwise any card.
sheet-follow-jass-4 = Exception: when trump is led and your only trump is the trump Jack, you may play the Jack or any other card.
sheet-follow-handjass = Follow suit when you can, and then beat the best card so far in the trick when you can. If you cannot follow, play a trump when you hold one (any trump: no need to overtrump); otherwise any card. Before trump exists, a player who cannot follow plays any card, and that card sets trump.
sheet-trick-winner-no-trump = The highest card of the led suit wins the trick, and its winner leads to the next trick.
sheet-trick-winner-trump = The highest trump in a trick wins it; with no trump in it, the highest card of the led suit. The winner leads to the next trick.
sheet-lot-intro = A player who expects to win every trick may declare the Lot.
sheet-lot-first-card = Declare it as you play your card to the first trick: each player decides in turn, after seeing the cards already played. More than one player may declare.
sheet-lot-before-lead = Declare it before the first card is led: the players are asked in turn, starting with the leader, and the first to declare is the only declarer. If all pass, there is no Lot.
sheet-lot-success = Success (the declarer wins every trick): the declarer scores { $points }, nobody else scores.
sheet-lot-fail = Failure: every player who did not declare scores { $points }, the declarers 0.
sheet-lot-ends = The Lot replaces the trick table. As soon as every declarer has lost a trick, the deal ends.
sheet-lot-ends-one = The Lot replaces the trick table. As soon as the declarer loses a trick, the deal ends.
sheet-points-card = Card
sheet-points-plain = Plain suits
sheet-points-trump = Trump suit
sheet-points-every-suit = Every suit
sheet-points-joker = The joker is worth { $points ->
    [one] 1 point.
   *[other] { $points } points.
}
sheet-points-last-trick = The winner of the last trick scores { $points } more.
sheet-points-total = A deal has { $total } points in all.
sheet-points-eights = If no trump is set all deal, each 8 is worth 8 (the total is the same).
sheet-points-mura = King, queen and jack: 1 point each. An ace: 2 points to its owner when it wins the trick it is played to; otherwise 1 point to whoever wins that trick.
sheet-tricks = Tricks
sheet-points = Points
sheet-trick-table-intro = Each player scores by the number of tricks won:
sheet-trick-table-intro-lot = When no Lot is declared, each player scores by the number of tricks won:
sheet-first-rule-applies = After each deal, the first of these rules that applies decides the score:
sheet-mittlere-all-tricks = A player won every trick: that player +2, the others −1 each.
sheet-mittlere-hundred-no-trick = One player took 100 points or more and another won no trick: those two −1 each, the third +2.
sheet-mittlere-no-trick = A player won no trick: that player −2, the others +1 each.
sheet-mittlere-hundred = A player took 100 points or more: that player −2, the others +1 each.
sheet-mittlere-two-equal = Two players have equal points: those two −1 each, the third +2.
sheet-mittlere-else = Otherwise the highest and the lowest +1 each, the middle player −2.
sheet-molotow-all-points = A player took all { $total } points (with or without every trick): that player +3, the others −1 each.
sheet-molotow-hundred = A player took 100 points or more: that player −3, the others +1 each.
sheet-molotow-three-equal = Three players have equal points: the fourth +1; the three tied each draw a card, and the one drawing the highest card −1.
sheet-molotow-two-lowest = The two lowest are equal: those two 0, the highest +1, the second −1.
sheet-molotow-two-highest = The two highest are equal: those two 0, the third −1, the lowest +1.
sheet-molotow-two-middle = The two in the middle are equal: the highest and the lowest +1 each, the two in the middle −1 each.
sheet-molotow-two-middle-reversed = The two in the middle are equal: the highest and the lowest −1 each, the two in the middle +1 each.
sheet-molotow-all-differ = All points differ: the highest and the lowest +1 each, the two in the middle −1 each.
sheet-molotow-all-differ-reversed = All points differ: the highest and the lowest −1 each, the two in the middle +1 each.
sheet-molotow-no-trick = There is no penalty for taking no trick.
sheet-strokes = Score sheets write +1 as a stroke (|) and −1 as a circle (○).
sheet-plus-minus-intro = Only plus points are scored:
sheet-plus-minus-all-but-one = All players but one have equal points: only that one scores 2.
sheet-plus-minus-else = Otherwise the highest and the lowest score 1 each; but a player with 100 points or more does not score, and then only the lowest scores.
sheet-plus-minus-held = When the highest (or the lowest) is shared by two players, that point is held over: the first later deal in which exactly one of those two scores gives that player the point too. Points still held when the game ends are lost.
sheet-own-points = The highest and the lowest each score their own card points; the middle player scores nothing.
sheet-own-points-two-equal = If two players have equal points, only the third scores its card points.
sheet-own-points-no-penalty = There is no penalty for too many points or for taking no trick.
sheet-mura-penalty = After each deal every player takes penalty points: tricks won + 1 (a player with no trick takes 1).
sheet-mura-threshold = A player whose captured points reach { $points } takes no penalty, however many tricks they won.
sheet-mura-bonus = A player capturing { $points } points or more has 1 penalty point taken off their total instead (never below 0).
sheet-end-deals = A game is { $deals ->
    [one] 1 deal.
   *[other] { $deals } deals.
} The highest total wins; players tied for it share the win.
sheet-end-deals-penalty = A game is { $deals ->
    [one] 1 deal.
   *[other] { $deals } deals.
} The fewest penalty points win; players tied for it share the win.
sheet-end-target = The game ends after a deal in which a player reaches { $target ->
    [one] 1 point.
   *[other] { $target } points.
} The highest total wins.
sheet-end-target-penalty = The game ends after a deal in which a player reaches { $target ->
    [one] 1 penalty point.
   *[other] { $target } penalty points.
} The fewest penalty points win.
sheet-end-tie-play-on = If the best total is shared, play more deals until it is not.
sheet-end-tie-share = Players tied for the best total share the win.
sheet-end-tie-play-on-penalty = If the fewest is shared, play more deals until it is not.
sheet-end-tie-share-penalty = Players tied for the fewest share the win.
sheet-card-table = Tricks → points
sheet-card-table-no-lot = Tricks → points (no Lot)
sheet-card-first-rule = Scoring: the first rule that applies
sheet-card-mittlere-all-tricks = Every trick: +2, others −1
sheet-card-mittlere-hundred-no-trick = 100+ points and another no trick: those two −1, third +2
sheet-card-mittlere-no-trick = No trick: −2, others +1
sheet-card-mittlere-hundred = 100+ points: −2, others +1
sheet-card-mittlere-two-equal = Two equal: those two −1, third +2
sheet-card-mittlere-else = Otherwise: highest and lowest +1, middle −2
sheet-card-molotow-all-points = All { $total } points: +3, others −1
sheet-card-molotow-hundred = 100+ points: −3, others +1
sheet-card-molotow-three-equal = Three equal: the fourth +1; the three draw, highest card −1
sheet-card-molotow-two-lowest = Two lowest equal: they 0, highest +1, second −1
sheet-card-molotow-two-highest = Two highest equal: they 0, third −1, lowest +1
sheet-card-molotow-two-middle = Two middle equal: highest and lowest +1, middle −1
sheet-card-molotow-two-middle-reversed = Two middle equal: highest and lowest −1, middle +1
sheet-card-molotow-all-differ = All differ: highest and lowest +1, middle −1
sheet-card-molotow-all-differ-reversed = All differ: highest and lowest −1, middle +1
sheet-card-plus-minus-all-but-one = All but one equal: that one +2
sheet-card-plus-minus-else = Otherwise highest and lowest +1 (100+ points: none; only the lowest)
sheet-card-plus-minus-held = Highest or lowest shared by two: the point is held over.
sheet-card-own-points = Highest and lowest score their card points, middle 0
sheet-card-own-points-two-equal = Two equal: only the third scores
sheet-card-strokes = | = +1   ○ = −1
sheet-card-mura-penalty = Penalty: tricks + 1 (no trick: 1)
sheet-card-mura-threshold = { $points } points or more: no penalty
sheet-card-mura-bonus = { $points } points or more: −1 off your total
sheet-card-lot = Lot ({ $when })
sheet-card-lot-first-card = with your first card
sheet-card-lot-before-lead = before the first lead
sheet-card-lot-success = Success: declarer { $points }
sheet-card-lot-fail = Failure: { $points } to each other player
sheet-card-lot-several = More than one may declare
sheet-card-lot-priority = Asked in turn from the leader: the first to declare has it
sheet-card-rank-order = High to low: { $order }
sheet-card-trump = Trump: { $order }
sheet-card-trump-set = Trump is set by the first card played off suit
sheet-card-led-low = A led { $low } wins the trick
sheet-card-joker-free-follow = Joker led: wins, others play anything; otherwise only when void, loses
sheet-card-joker-names-suit = Joker led: wins, leader names the suit; otherwise any time, loses
sheet-card-joker-highest-trump = Joker: highest trump; before any trump, the only trump
sheet-card-joker-last-says = Joker led: wins, others play anything; otherwise only when void; second loses, last: its player says win or lose
sheet-card-points-trump = Trump: { $values }
sheet-card-points-joker = Joker { $points }
sheet-card-points-last-trick = Last trick +{ $points }
sheet-card-points-total = { $total } points a deal
sheet-card-points-eights = No trump all deal: each 8 is worth 8
sheet-card-points-mura-figures = K, Q, J: 1 each
sheet-card-points-mura-ace = A: 2 if it wins its own trick, else 1 to the winner
sheet-card-end-deals = Game: { $deals ->
    [one] 1 deal
   *[other] { $deals } deals
}
sheet-card-end-target-play-on = Game: to { $target } (a shared lead plays on)
sheet-card-end-target-share = Game: to { $target } (ties share)
sheet-card-end-penalty-play-on = Game: until { $target } penalty points; fewest wins (a shared lead plays on)
sheet-card-end-penalty-share = Game: until { $target } penalty points; fewest wins (ties share)
sheet-pad-deal = Deal
sheet-pad-player = Player { $n }
sheet-pad-notes = Notes
sheet-pad-points = Points
sheet-pad-running = Total
sheet-pad-card-points = Pts
sheet-pad-strokes = |
sheet-pad-circles = ○
sheet-pad-score = Score
sheet-pad-penalty = Penalty
sheet-pad-total = Total
sheet-pad-net = Net (| − ○)
sheet-pad-held = Highest or lowest shared by two: note the held-over point.
sheet-pad-lot = Lot: success { $success } to the declarer, failure { $fail } to each other player.
sheet-pad-date = Date
sheet-pad-place = Place
sheet-pad-tally = Strokes and circles
sheet-pad-tally-how = Each player's marks run down their column, deal after deal; the net is strokes minus circles.
sheet-pad-tally-plus = a stroke: +1
sheet-pad-tally-minus = a circle: −1
sheet-pad-tally-zero = a plus after a minus, or a minus after a plus: the stroke is written over the circle, for 0
sheet-kicker-compare = The rules side by side
sheet-cmp-title-trick-table = Mini Misère
sheet-cmp-head-players = { $players } players
sheet-cmp-head-current = (current)
sheet-cmp-head-1989 = (1989)
sheet-cmp-head-house = House rules: { $head }
sheet-cmp-sec-table = Every form at a glance
sheet-cmp-row-players = Players
sheet-cmp-row-deck = Cards
sheet-cmp-row-ranks = Ranks, high to low
sheet-cmp-row-hand = Cards each
sheet-cmp-row-low = Low card
sheet-cmp-row-joker = Joker
sheet-cmp-row-lot = Lot declared
sheet-cmp-row-lot-points = Lot: success / failure
sheet-cmp-sec-tricks = Points for the tricks won
sheet-cmp-sec-tricks-lot = Points for the tricks won (when no Lot is declared)
sheet-cmp-row-end = Game
sheet-cmp-none = —
sheet-cmp-deck = { $count }
sheet-cmp-deck-joker = { $count } with the joker
sheet-cmp-low-led-wins = { $low }: led, wins the trick
sheet-cmp-low-no-power = { $low }: no power, lowest
sheet-cmp-joker-free-follow = Led: wins, others free. Else only when void; loses
sheet-cmp-joker-names-suit = Led: wins, names the suit. Else any time; loses
sheet-cmp-joker-last-says = Led: wins, others free. Else only when void; second loses, last: its player says
sheet-cmp-joker-highest-trump = The highest trump
sheet-cmp-lot-first-card = With your first card
sheet-cmp-lot-before-lead = Before the first lead, the leader first
sheet-cmp-no-lot = No Lot
sheet-cmp-lot-points = { $success } / { $fail } each
sheet-cmp-end-deals = { $deals } deals
sheet-cmp-end-target = To { $target } points
sheet-cmp-legend = { $mark } marks what differs from the first form, { $first }.
sheet-cmp-sec-play = Play (every form)
sheet-cmp-sec-lot = The Lot: current and 1989
sheet-cmp-lot-first-card-text = Current: declare the Lot (to win every trick) as you play your card to the first trick, after seeing the cards already played; more than one player may declare.
sheet-cmp-lot-before-lead-text = 1989: declare it before the first card is led. The players are asked in turn from the leader (the dealer's left), and the first to declare is the only declarer.
sheet-cmp-lot-scoring = A Lot replaces the trick table for the deal: the declarer who wins every trick scores the success points; otherwise every other player scores the failure points.

## Online play (browser)
web-score-keep = Keep score
web-duplicate-lobby = The same deals at several tables, compared afterwards?
web-duplicate-link = Hold a duplicate night
web-duplicate-title = A duplicate night
web-duplicate-intro = Every table plays the same deals with the same cards in the same seats; afterwards the page compares, deal by deal, how each table scored them.
web-duplicate-deals = Deals
web-duplicate-tables = Tables
web-duplicate-seats = Who sits in each seat (the same at every table)
web-duplicate-seat = Seat { $number }
web-duplicate-person = A person (joins by the table's link)
web-duplicate-bot-level = Bot: { $level }
web-duplicate-create = Create the tables
web-duplicate-page-title = Duplicate night: { $game }
web-duplicate-summary = { $deals ->
    [one] 1 deal
   *[other] { $deals } deals
  } at { $tables ->
    [one] 1 table
   *[other] { $tables } tables
  }, the same cards at each
web-duplicate-host-hint = You host this night: give each table's players that table's link (it lets them watch that table only), and start a table once its seats are taken. Keep this page's address to yourself.
web-duplicate-results-link = The results, for everyone:
web-duplicate-tables-title = Tables
web-duplicate-table = Table { $number }
web-duplicate-table-col = Table
web-duplicate-status-open = Waiting for its players
web-duplicate-status-playing = Playing: { $done } of { $deals } deals done
web-duplicate-status-finished = Finished
web-duplicate-status-gone = Closed without being played
web-duplicate-waiting = waiting for a player
web-duplicate-share = Link for this table's players:
web-duplicate-start = Start this table
web-duplicate-start-wait = (once every seat is taken)
web-duplicate-comparison = Deal by deal
web-duplicate-explain = Each table's score for the same cards, and in brackets its difference from the tables' average: higher is better.
web-duplicate-explain-penalty = Each table's penalty points for the same cards, and in brackets the difference from the tables' average: lower is better.
web-duplicate-none = No deal yet has been finished at every table.
web-duplicate-deal = Deal { $number }
web-duplicate-mean = Average
web-duplicate-running = { $count ->
    [one] After 1 deal: each table against the average
   *[other] After { $count } deals: each table against the average
  }
web-duplicate-pending = Deal { $number } is shown once every table has finished it.
web-duplicate-download = Download every table's record (one file)
web-score-title = Keep score of a game with real cards
web-score-intro = Choose the game and the players' names, then enter each deal the way the paper sheet does. The scores are worked out by the rules.
web-score-players = Players, in seat order
web-score-player = Player { $number }
web-score-start = Start the sheet
web-score-no-key = This browser does not hold this score sheet's write key: open it from the browser that created it, or ask for its read-only link.
web-score-next = Deal { $number } next, dealt by { $dealer }
web-score-deal = Deal { $number }
web-score-lot = Lot declared by
web-score-lot-winner = Took every trick:
web-score-lot-failed = nobody (the Lot failed)
web-score-lot-won = Lot won
web-score-lot-lost = Lot lost
web-score-tricks = Tricks (together { $total })
web-score-points = Card points (together { $total })
web-score-tricks-of = Tricks of { $name }
web-score-points-of = Card points of { $name }
web-score-draw = Drew the highest card:
web-score-add = Add the deal
web-score-undo = Take back the last deal
web-score-undo-deal = Take back deal { $number }
web-score-print = Print the sheet
web-score-pdf = Save as PDF
web-score-share = Read-only link for the other players' phones (it updates by itself):
web-score-read-only = Read-only view: it updates by itself as the deals are entered.
web-score-exempt = exempt
web-score-chips = { $count ->
    [one] 1 penalty chip
   *[other] { $count } penalty chips
}
web-score-ticks = Tricks: tick who took none, or who took them all
web-score-no-trick = none
web-score-every-trick = all
web-score-no-trick-of = { $name } took no trick
web-score-every-trick-of = { $name } took every trick
web-lobby = Lobby
web-tables = Tables
web-new-table = New table
web-ruleset = Game
web-your-name = Your name
web-create = Create table
web-timer = Move timer in seconds (empty: none)
web-options = House rules
web-fill = Fill the other seats with
web-fill-none = (seat people or bots later)
web-start-now = Start at once
web-private = Private table
web-rematch = Play again
web-seat-kept = kept for its player of the last game
web-rematch-join = Join the rematch
web-rematch-asked = Someone has asked for a rematch: the same seats and rules.
web-rematch-watch = Watch the rematch
web-rematch-waiting = Waiting for the other players of the last game to come back.
web-rematch-waiting-host = Waiting for the other players of the last game to come back; give the seat of anyone who has left to a bot. The game starts once every seat is filled.
web-series = { $games ->
    [one] Series: 1 game
   *[other] Series: { $games } games
}
web-series-wins = Wins
web-chat = Chat
web-chat-placeholder = Say something to the table
web-chat-send = Send
web-chat-empty = Nothing said yet.
web-chat-reactions = Quick reactions
web-chat-spectator = Only the people seated at the table can write here.
web-chat-muted = The host has muted you: you can read, but not write.
web-chat-mute = Mute { $name }
web-chat-unmute = Let { $name } speak
web-reaction-hello = Hello!
web-reaction-thanks = Thanks!
web-reaction-nice = Nice one!
web-reaction-oops = Oops!
web-reaction-good-game = Good game!
web-reaction-one-moment = One moment…
web-private-help = Not listed in the lobby: only people with the invite link can watch or take a seat.
web-status-open = open
web-status-playing = playing
web-status-finished = finished
web-join = Join
web-watch = Watch
web-empty-seat = empty
web-bot = bot
web-add-bot = Seat a bot
web-replace-bot = Replace by a bot
web-start = Start the game
web-invite = Invite link
web-online = online
web-away = away
web-play-card = Play { $card }
web-waiting = Waiting for { $seat }…
web-watching = You are watching.
web-record = Download the game record
web-no-tables = No tables yet: create one.
web-reconnecting = Connection lost: reconnecting…
web-error = { $message }
web-host = host
web-players = { $count } players
web-deals-played = { $count ->
    [one] { $count } deal played
   *[other] { $count } deals played
}
web-close = Close
web-dealer = dealer
web-to-act = to act
web-cards = cards
web-refresh = Refresh
web-deal = Deal
web-waiting-start = Waiting for the host to start the game.
web-seat-taken = Take seat { $seat }
web-timer-info = Move timer: { $seconds } s
web-lot-badge = Lot
web-rules = Rules
web-table = Table
web-view-table = View table
web-house-rule = house rule
web-sheets = Printable sheets
web-sheets-help = HTML opens in a new tab, ready to print on A4; PDF downloads the same sheet.
web-sheet-html = HTML (print)
web-rule-options = Options of these rules
web-rules-presets = Other games
web-history = Game history
web-history-help = Tap a deal's number to replay it with all { $count } hands shown.
web-history-not-over = The game is still being played: its history and replay are shown when it ends.
web-replay = Replay
web-replay-deal = Replay deal { $number }
web-replay-dealt = The cards are dealt.
web-replay-position = Deal { $deal } of { $deals } · action { $step } of { $steps }
web-replay-keys = Keys: ← → one action, ↑ ↓ (or Shift + ← →) one trick, Home / End the first and the last.
web-analysis = Analysis
web-analyse = Analyse
web-analysis-who = Whose decisions
web-analysis-all = Every player
web-analysis-intro = Each decision is valued from what the player could know at that moment (their own hand and what had been played), as the expected points of the deal for that player.
web-analysis-queued = Waiting for the analyses before this one…
web-analysis-running = Analysing… { $done } of { $total } decisions
web-analysis-done = Analysed, { $worlds } possible deals a decision.
web-analysis-summary = { $name }: { $mistakes ->
        [one] 1 mistake
       *[other] { $mistakes } mistakes
    }{ $blunders ->
        [0] {""}
        [one] , 1 blunder
       *[other] , { $blunders } blunders
    }{ $inaccuracies ->
        [0] {""}
        [one] , 1 inaccuracy
       *[other] , { $inaccuracies } inaccuracies
    }, { $loss } points in deal { $deal }
web-analysis-in-replay = See every decision in the replay
web-analysis-legend = Points lost against the best choice; a loss from { $mistake } points is a mistake, from { $blunder } a blunder.
web-analysis-none = No choice here: this turn had a single legal action, or is not of the players analysed.
web-analysis-value = { $action }: { $value } expected points (± { $stderr })
web-analysis-decision = { $name } chose { $chosen } ({ $value }); best was { $best } ({ $bestValue }), { $loss } points lost: { $verdict }
web-analysis-decision-best = { $name } chose { $chosen } ({ $value }): { $verdict }
web-analysis-exact = With every hand known: { $chosen } (best { $best }).
web-analysis-exact-unsolved = With every hand known: too large to solve.
web-analysis-key = The bar under each legal card is its expected points for the player to act: ● the card played, ★ the best.
web-first = First
web-prev-trick = Previous trick
web-prev-card = Previous action
web-next-card = Next action
web-next-trick = Next trick
web-last = Last
web-scoring = Scoring
web-lot-success = succeeded
web-lot-failed = failed
web-draw = Draw: { $seat } drew the highest card
web-timer-left = { $seat }: { $seconds } s left
web-timer-mine = Your turn: { $seconds } s left
web-conn-connecting = Connecting to the server…
web-conn-loading = Connected: loading the table…
web-conn-retry = Connection lost: reconnecting in { $seconds } s. Play waits until it is back.
web-conn-restarting = The server is restarting: reconnecting in { $seconds } s. Play waits until it is back.
web-conn-offline = You are offline: play resumes when the connection is back.
web-conn-retry-now = Reconnect now
web-conn-you-offline = connection lost
web-absent-seconds = away for { $seconds } s
web-absent-minutes = away for { $minutes } min
web-absent-hours = away for { $hours } h
web-replace-in = A bot may take this seat in { $seconds } s
web-table-turn-title = Your turn
web-trick-taker = takes the trick
web-trick-winning = winning so far
web-exempt-help = Card points at the exemption: no penalty for this deal
web-trump-not-yet = No trump yet
web-sound-on = Sound on
web-sound-off = Sound off
web-sound-help = Sounds for a card played and for your turn, and a short vibration on phones that allow it
web-host-start = Seat bots in the empty seats or wait for players to join, then start the game.
web-undo = Undo my last move
web-undo-ask = Ask to undo my last move
web-undo-asked = { $seat } asks to take back their last move.
web-undo-accept = Accept
web-undo-decline = Decline
web-undo-waiting = Waiting for { $seats } to accept taking back your last move.
web-undo-withdraw = Withdraw
web-filter-all = All ({ $count })
web-filter-open = Open seats ({ $count })
web-filter-playing = Playing ({ $count })
web-filter-finished = Finished ({ $count })
web-page = Page { $page } of { $pages }
web-page-prev = Previous
web-page-next = Next
web-replaced = Your seat was given to a bot while you were away
web-replaced-help = The game goes on with a bot in your seat. You can still watch it.
web-replaced-watch = Watch as a spectator
web-err-replaced = Your seat was given to a bot while you were away.
web-err-token = This browser no longer holds a seat at this table: you are watching.
web-err-network = Cannot reach the server: check the connection and try again.
web-err-413 = That is more than the server accepts.
web-err-415 = The server does not accept the request in that form.
web-err-429 = Too many requests: wait a moment and try again.
web-err-server = The server failed (status { $status }): try again in a moment.
web-err-status = The server refused the request (status { $status }).

## Deal facts that cannot happen
facts-player-count = { $given } seats given, the game has { $players }
facts-no-lot = this game has no Lot
facts-bad-declarers = the Lot's declarers must be seats of the game
facts-winner-did-not-declare = { $seat } won the Lot but did not declare it
facts-tricks-total = tricks add up to { $given }, but a deal has { $expected }
facts-points-total = card points add up to { $given }, but a deal has { $expected }
facts-points-without-trick = { $seat } won no trick but has { $points ->
    [one] 1 point
   *[other] { $points } points
}

## Games (preset names)
preset-mini-misere-4 = Mini Misère (current rules, 4 players)
preset-mini-misere-4-1989 = Mini Misère (1989 rules, 4 players)
preset-mini-misere-5 = Mini Misère (current rules, 5 players)
preset-mini-misere-5-1989 = Mini Misère (1989 rules, 5 players)
preset-mini-misere-6 = Mini Misère (6 players)
preset-mini-misere-3 = Mini Misère (3 players, with the joker)
preset-mittlere-jass = Mittlere Jass
preset-molotow-jass = Molotow Jass
preset-plus-minus-jass-3 = Plus-Minus Jass (3 players)
preset-plus-minus-jass-4 = Plus-Minus Jass (4 players)
preset-middler = Middler
preset-middler-joker = Middler with joker (33 cards)
preset-mura-4 = Mura (4 players)
preset-mura-3 = Mura (3 players)

## House-rule options (option-NAME) and their values (option-NAME-VALUE)
option-target = Target
option-target-help = The game ends after the deal in which someone reaches this score (in Mura: this many penalty points).
option-target-value = { $value ->
    [one] { $value } point
   *[other] { $value } points
}
option-deals = Number of deals
option-deals-help = Play exactly this many deals instead of playing to a target; the best total wins.
option-deals-value = { $value ->
    [one] { $value } deal
   *[other] { $value } deals
}
option-lot_timing = Lot timing
option-lot_timing-help = When a player may declare the Lot, a bid to win every trick.
option-lot_timing-first-card = with the first card (current rules)
option-lot_timing-before-lead = before the first lead (1989 rules)
option-low_card = Low card
option-low_card-help = The deck's lowest rank: the 2, or the 9 with the 2s replaced by 9s.
option-low_card-2 = the 2
option-low_card-9 = the 9 (replacing the 2s)
option-led_low_wins = A led low card wins
option-led_low_wins-help = Whether the low card, when led, beats every card of its suit (when not led it is the lowest).
option-led_low_wins-true = yes
option-led_low_wins-false = no
option-molotow_middle_wins = Molotow rules 6 and 7 as printed (the middle wins)
option-molotow_middle_wins-help = How rules 6 and 7 of the Molotow scoring are read: as the source prints them, or as their sense suggests.
option-molotow_middle_wins-true = yes
option-molotow_middle_wins-false = no (the highest and the lowest win)
option-follow = Following
option-follow-help = What a player must play to a trick: follow suit, or the Jass rules of trumping.
option-follow-must-follow = follow suit when able
option-follow-jass = Jass (may trump, no undertrump)
option-follow-handjass = Handjass (must beat, else trump)
option-threshold = Points that exempt from the penalty
option-threshold-help = A player whose captured points reach this many takes no penalty for the deal.
option-threshold-value = { $value ->
    [one] { $value } point
   *[other] { $value } points
}
option-bonus_at = Points that take a penalty point off
option-bonus_at-help = A player whose captured points reach this many has one penalty point taken off instead.
option-bonus_at-value = { $value ->
    [one] { $value } point
   *[other] { $value } points
}
option-bonus_at-none = no bonus

## Refusals from the server (crates/server/src/refusal.rs): err-{code}, sent with the code and
## these arguments; the English text is the answer's `error`.
err-not-json-body = the body must be sent as Content-Type: application/json (this request's: { $sent })
err-body-too-large = the body is over { $kib } KiB
err-body-unreadable = the body could not be read: { $detail }
err-body-not-json = the body is not valid JSON: { $detail }
err-body-not-object = the body must be a JSON object
err-field-needed = "{ $field }" is needed (a string)
err-seat-needed = "seat" is needed (a seat number from 0)
err-seed-range = "seed" must be a whole number from 0 to { $max }, not { $value }
err-timer-not-number = "timer" must be a number of seconds or null
err-timer-range = timer: from { $min } to { $max } seconds
err-fill-not-bot = "fill" must be a bot name
err-private-not-bool = "private" must be true or false
err-bot-unknown = unknown bot "{ $bot }" (known: { $known })
err-bot-budget = { $detail }
err-too-many-creates = too many new tables from this address: wait a minute
err-server-full = the server has as many tables as it keeps
err-too-many-open = this address already has { $open } open tables (at most { $max }): finish or leave one first
err-table-busy = the table is busy; try again
err-server-busy = the server is busy; try again
err-table-not-running = the table is not running
err-no-table = no table "{ $id }"
err-table-vanished = the table vanished
err-table-over = the game at table { $id } is over
err-record-not-yet = the game at table { $id } is not over: its record is published when it ends
err-replay-not-yet = the game at table { $id } is not over: its replay is shown when it ends
err-analysis-not-yet = the game at table { $id } is not over: it can be analysed once it ends
err-analysis-seat = "seat" must be a seat from 0 to { $max } or "all", not { $value }
err-analysis-worlds = "worlds" must be a power of two from 1 to { $max }, not { $value }
err-analysis-busy = the server is running as many analyses as it takes ({ $max }); try again in a minute
err-analysis-busy-client = you already have { $max } analyses under way; wait until one is done
err-analysis-not-asked = table { $id } has no analysis of these seats yet: ask for one first
err-analysis-no-decision = these seats had no decision to analyse (every turn had a single legal action)
err-storage = the store failed, nothing changed: { $detail }
err-internal = the server failed: { $detail }
err-kept-record-broken = the kept record of table { $id } is not JSON: { $detail }
err-kept-record-no-ruleset = the kept record of table { $id } has no ruleset
err-record-does-not-replay = the kept record does not replay: { $detail }
err-table-ruleset-broken = the ruleset of table { $id } does not load: { $detail }
err-sheet-failed = the sheet could not be made: { $detail }
err-unknown-parameter = unknown parameter "{ $name }" (kind, lang and format are accepted)
err-bad-sheet-kind = kind: unknown value "{ $value }" (rules, scores, scorepad or compare)
err-bad-sheet-format = format: unknown value "{ $value }" (html or pdf)
err-unknown-lang = lang: unknown value "{ $value }" (en or ja)
err-no-preset = no preset "{ $id }" (GET /api/presets lists them)
err-no-page = no such page: { $path }
err-no-scoresheet = no such score sheet: { $id }
err-scoresheet-key = this key opens neither the score sheet nor its view
err-scoresheet-view-only = this is the score sheet's view key: only the write key changes the sheet
err-scoresheet-players = this game needs { $count } player names, one per seat; { $given } were given
err-scoresheet-name-twice = “{ $name }” is given twice: each player needs a name of their own
err-scoresheet-numbers = { $field } must be { $count } whole numbers, one per player
err-scoresheet-tricks-total = the tricks must add up to { $expected }; these add up to { $given }
err-scoresheet-points-total = the card points must add up to { $expected }; these add up to { $given }
err-scoresheet-points-without-trick = { $player } took no trick, so cannot have { $points } card points
err-scoresheet-no-lot = this game has no Lot
err-scoresheet-lot = a Lot is its declarers (seats 0 to { $last }, each once) and the declarer who won every trick, or none
err-scoresheet-winner = { $player } won the Lot but did not declare it
err-scoresheet-draw = { $players } tie: say which of them drew the highest card
err-scoresheet-over = the game is over: take back a deal to go on
err-scoresheet-full = the score sheet holds { $max } deals, as many as it keeps
err-scoresheet-nothing-to-undo = the score sheet has no deal to take back
err-scoresheet-no-deal = there is no deal { $number }: the sheet has deals 1 to { $count }
err-scoresheet-undo-ends = without deal { $number } the game would end after { $ends } deals: take back the deals after that first (the sheet has { $count })
err-scoresheet-changed = the score sheet was changed at the same moment: look at it again and retry
err-scoresheet-ticks = the ticks are the players who took no trick and the one who took every trick (seats 0 to { $last }, each once); nobody can be both, and someone took a trick
err-scoresheet-followers = this score sheet is open on as many phones as it takes ({ $max }): close one and try again
err-method-not-allowed = { $path } does not take { $method } requests
err-request = { $detail } (status { $status })
err-no-asset = no asset "{ $path }"
err-origin-refused = origin "{ $origin }" is not allowed: only this server's own pages may call it (torite serve --allow-origin URL admits another)
err-profile-key-needed = this needs your player profile: create one on the lobby, or open your profile's link on this device
err-profile-key = this profile key is not one this server gave: open the profile's link again, or create a new profile
err-no-profile = no player profile "{ $id }"
err-profile-no-seat = this browser holds no seat at table { $id } to keep with your profile
err-profile-seat-taken = seat { $seat } of table { $id } is kept by another profile, or your profile already keeps another seat there
err-no-duplicate = no such duplicate series: { $id }
err-duplicate-key = this key is not the host key of this duplicate series
err-duplicate-deals = a duplicate series has from 1 to { $max } deals, given as a whole number
err-duplicate-tables = a duplicate series is played at 1 to { $max } tables, given as a whole number
err-duplicate-seats = give { $count } seats, one per seat, each "person" or a bot
err-qr-text = a QR code is drawn only of a link (http:// or https://) of at most { $max } characters
web-profile = Profile
web-profile-you = you
web-profile-name = Your name
web-profile-create = Create my profile
web-profile-rename = Change the name
web-profile-create-help = No password and no e-mail: this browser keeps your profile's key. Your seats, games and statistics follow the profile, and its link moves it to your other devices.
web-profile-as = Playing as { $name }
web-profile-move = Use this profile on another device
web-profile-move-help = Open this link on the other device, or scan the code with its camera. Whoever has the link is you at torite: keep it to yourself.
web-profile-move-link = The profile's link
web-profile-copy = Copy
web-profile-copied = Copied.
web-profile-copy-by-hand = Select the link and copy it by hand.
web-profile-qr-alt = QR code of the profile's link
web-profile-forget = Forget the profile on this browser
web-profile-forget-confirm = Forget the profile on this browser? Its link still brings it back.
web-profile-move-in = A player profile
web-profile-move-who = This link carries the profile of
web-profile-move-replaces = This browser now uses the profile { $name }; it will use this one instead (the other one's link still works).
web-profile-use = Use this profile here
web-mine = My games
web-mine-loading = Loading…
web-mine-none = No games yet: the tables you create or join from now on are listed here, on every device with your profile.
web-mine-playing = Playing
web-mine-finished = Finished
web-mine-status-open = waiting for players
web-mine-status-playing = playing
web-mine-status-finished = finished
web-mine-status-gone = closed before the end
web-mine-all = { $count ->
    [one] My game
   *[other] All my { $count } games
}
web-mine-won = won
web-mine-return = Return to my seat
web-stats = Statistics
web-stats-none = No finished games yet.
web-stats-games = Games
web-stats-wins = Wins
web-stats-average = Average per deal
web-stats-all = All games
web-stats-people = Against people
web-stats-bots = Against bots
web-stats-rating = Rating { $rating } ±{ $deviation }: { $rank } of { $of } in the ranking
web-stats-unrated = Not ranked: only games between people with profiles count.
web-ranking = Ranking
web-ranking-help = Glicko-2 ratings from games between people with profiles; games with a bot do not count. Everyone starts at 1500; the ± is how sure the rating is.
web-ranking-none = No ranked games yet.
web-ranking-games = { $count ->
    [one] (1 game)
   *[other] ({ $count } games)
}
web-ranking-rank = #
web-ranking-player = Player
web-ranking-rating = Rating
err-replaced = the host gave seat { $seat } to a bot: this token no longer plays at this table
err-no-seat = this token has no seat at this table
err-act-no-seat = this token has no seat at this table: spectators cannot act
err-spectators-full = this table has as many spectators as it takes
err-spectators-per-address = this address has as many spectators' sockets at this table as it may
err-token-sockets = this seat has as many sockets open at this table as it may: close another tab
err-too-many-messages = too many messages: slow down
err-spectator-cannot-act = spectators cannot act
err-message-not-json = not JSON: messages are JSON objects with a "type"
err-message-no-type = a message needs a "type": act, undo, undo_answer, ping, chat or mute
err-message-unknown-type = unknown message type "{ $name }": act, undo, undo_answer, ping, chat or mute
err-message-no-action = "action" is needed: a card code, lot, pass, call:S|H|D|C or joker:win|lose
err-message-no-version = "version" is needed: the version of the state the action answers
err-message-no-accept = "accept" is needed: true or false
err-message-no-chat = a chat message needs either "text" or "reaction"
err-message-no-mute = a mute needs "seat" (a seat number) and "muted" (true or false)
err-message-action-too-long = unknown action
err-message-binary = binary messages are not understood: send JSON text
err-unknown-action = unknown action "{ $action }": expected a card code (e.g. AS, TH, 10H, JK), lot, pass or call:S|H|D|C
err-stale = stale action: the table is at version { $version }, not { $sent }
err-not-your-turn = it is not your turn: seat { $seat } is to act
err-nobody-to-act = nobody is to act now
err-undo-not-now = there is nothing to undo now: no deal is being played
err-undo-nothing = you have not played in this deal yet: there is nothing of yours to undo
err-undo-too-late = too late to undo: someone else has played since your last move
err-undo-pending = an undo request is already waiting for answers
err-undo-not-asked = no undo request is waiting for your answer
err-illegal = { $action } is illegal: { $detail }
err-replace-connected = seat { $seat } ({ $name }) is connected: only an absent player may be replaced
err-replace-too-soon = seat { $seat } ({ $name }) has been away for { $away } s: a player may be replaced after { $needed } s away
err-host-only-bot = only the host may seat a bot
err-host-only-start = only the host may start the game
err-chat-no-seat = only the people seated at the table can chat
err-chat-muted = the host has muted you at this table
err-chat-empty = write something first
err-chat-too-long = a chat line is at most { $max } characters (this one has { $length })
err-chat-character = chat lines may not contain { $character } ({ $why })
err-chat-reaction = unknown reaction "{ $reaction }" (known: { $known })
err-chat-too-fast = you are writing too fast: wait { $seconds } s
err-host-only-mute = only the host may mute someone
err-mute-no-person = seat { $seat } holds no person to mute
err-mute-self = the host cannot mute themselves
err-rematch-not-yet = a rematch can be asked for once the game is over
err-rematch-exists = this game's rematch has already been created
err-rematch-no-seat = only the people who played this game can ask for its rematch
err-seat-reserved = seat { $seat } is kept for the person who played it in the game before
err-series-not-first = a series must come right after the table's creation, with one entry per seat
err-name-needed = a name is needed
err-name-character = names may not contain { $character } ({ $why })
err-name-too-long = names are at most { $max } characters (this one has { $length })
err-name-length = names are 1 to { $max } characters
err-name-control = names may not contain control characters
err-bad-ruleset = { $detail }
err-unknown-ruleset = unknown ruleset "{ $id }" (known: { $known })
err-unknown-option = unknown option "{ $name }" (known: { $known })
err-option-not-applicable = option { $name } ({ $option }) does not apply: { $why }
err-option-bad-value = option { $name } ({ $option }) = { $value } is invalid: expected { $expected }
err-options-conflict = options { $names } conflict: { $why }
err-log-start = a table's log must start with its creation
err-table-exists = the table already exists
err-already-started = the game has already started
err-not-started = the game has not started
err-game-over = the game is over
err-no-such-seat = seat { $seat } does not exist: this table has seats 0 to { $last }
err-seat-taken = seat { $seat } is taken
err-seat-is-bot = seat { $seat } is already played by a bot
err-seat-empty = seat { $seat } is empty: fill every seat (a person or a bot) first
err-no-deal = no deal is in progress
err-no-deal-to-score = no finished deal to score
err-bad-hand = bad hand "{ $hand }": { $detail }
err-bad-event = { $detail }
char-bidi = a bidirectional control
char-zero-width = a zero-width character
char-control = a control character
char-format = a format character
char-separator = a line or paragraph separator
char-private-use = a private-use character
char-unassigned = not an assigned character

## torite show: a record as a readable score sheet
show-house-rules = {" "}with house rules
show-seat = seat { $seat }
show-deal = Deal { $number } (dealer: { $dealer })
show-trump = trump: { $trump }
show-trump-joker = the joker alone
# Between the names of a list (quoted to keep its space).
show-list-separator = { ", " }
show-lot = Lot: { $seats }
show-lot-declarer-succeeded = { $seat } (succeeded)
show-lot-declarer-failed = { $seat } (failed)
show-lot-declarer-open = { $seat } (in progress)
show-trick = trick { $number }
show-tricks = tricks
show-points = points
show-score = score
show-total = total
show-deal-open = deal in progress
show-game-over = Game over. { $winners }
show-game-open = Game not finished.

## torite stats and torite arena: the reports' words
stats-title = { $rules }: { $games } games, { $deals } deals
stats-bots = Players: { $bots }
stats-bots-default = Players: { $bots } (the default for this game)
stats-bots-default-lot = Players: { $bots } (the default for a game with the Lot: the rule-of-thumb player never declares it)
stats-bot-random = random play
stats-bot-heuristic = rule of thumb
stats-bot-ismcts = search
stats-bot-ismcts-budget = search ({ $budget })
stats-bot-ismcts-inf = search that reads the others' play
stats-bot-ismcts-inf-budget = search that reads the others' play ({ $budget })
stats-bot-ismcts-eval = search with a learned evaluation
stats-bot-ismcts-eval-budget = search with a learned evaluation ({ $budget })
stats-bot-ismcts-eq = search that treats equivalent cards as one
stats-bot-ismcts-eq-budget = search that treats equivalent cards as one ({ $budget })
stats-bot-ismcts-duck = search with ducking playouts
stats-bot-ismcts-duck-budget = search with ducking playouts ({ $budget })
stats-bot-ismcts-lot = search whose playouts defend against the Lot
stats-bot-ismcts-lot-budget = search whose playouts defend against the Lot ({ $budget })
stats-bot-ismcts-pol = search that reads the others' play with a learned model
stats-bot-ismcts-pol-budget = search that reads the others' play with a learned model ({ $budget })
stats-bot-ismcts-net = search that reads the others' play with a learned neural network
stats-bot-ismcts-net-budget = search that reads the others' play with a learned neural network ({ $budget })
stats-bot-ismcts-read = search that reads the others' play by searching as them
stats-bot-ismcts-read-budget = search that reads the others' play by searching as them ({ $budget })
stats-bot-ismcts-table = search that plays to beat the table
stats-bot-ismcts-table-budget = search that plays to beat the table ({ $budget })
stats-bot-pimc = sampled exact search
stats-bot-pimc-budget = sampled exact search ({ $budget })
stats-bot-omniscient = reference that sees every hand
stats-bot-maxn = exact reference that sees every hand

# Named bot levels (`torite play --bots`, the browser's seats, `GET /api/bots`), weakest first.
web-bot-random = Random player
web-bot-heuristic = Rule of thumb
web-bot-ismcts = Search
web-bot-ismcts-inf = Search that reads the others' play
web-bot-ismcts-eval = Search with a learned evaluation
web-bot-ismcts-eq = Search that treats equivalent cards as one
web-bot-ismcts-duck = Search with ducking playouts
web-bot-ismcts-lot = Search whose playouts defend against the Lot
web-bot-ismcts-pol = Search that reads the others' play with a learned model
web-bot-ismcts-net = Search that reads the others' play with a learned neural network
web-bot-ismcts-read = Search that reads the others' play by searching as them
web-bot-ismcts-table = Search that plays to beat the table
web-bot-pimc = Exact search
level-beginner = Beginner
level-beginner-description = Learning the game: often fails to duck, leads its high cards too early, and sometimes plays without thinking.
level-casual = Casual
level-casual-description = Plays mostly by rule of thumb, and thinks hard about one card in ten.
level-club = Club
level-club-description = A club regular: thinks hard about a third of its cards and plays the rest by rule of thumb.
level-strong = Strong
level-strong-description = Thinks hard about most of its cards and plays the rest by rule of thumb.
level-expert = Expert
level-expert-description = Thinks hard about every card it plays, and reads the others' cards from how they play.

stats-budget-iterations = { $n } iterations a decision
stats-budget-millis = { $n } ms a decision
stats-house = { $rules }, with { $options }
stats-house-option = { $option }: { $value }
stats-deals-per-game = Deals per game: { $mean } ± { $ci }
stats-lot-declared = Lot declared: { $rate }% ± { $ci }% of deals ({ $count ->
    [one] 1 deal
   *[other] { $count } deals
  })
stats-lot-succeeded = Lot succeeded: { $rate }% ± { $ci }% of Lots ({ $hits } of { $count })
stats-exempt = Exempt from the penalty: { $rate }% ± { $ci }% of seat-deals
stats-exempt-early = Exempt with tricks still to play: { $rate }% ± { $ci }% of seat-deals
stats-exempt-replay = Of those, random play from then on changed its penalty: { $rate }% ± { $ci }% ({ $hits } of { $count })
stats-plot-exempt = { $rules }: when a seat became exempt
stats-axis-exempt-trick = tricks completed when the seat's points reached the threshold
stats-axis-seat-deals = seat-deals
stats-worst-repeats = Worst seat repeats: { $rate }% ± { $ci }% of consecutive deals (by chance: { $none }%)
stats-by-position = By position (0 = the first leader, { $last } = the dealer; { $better })
stats-position = position
stats-score = score ± 95%
stats-penalty = penalty ± 95%
stats-higher-better = higher is better
stats-lower-better = lower is better
stats-tricks-by-position = Tricks won by position (0 = the first leader, { $last } = the dealer), share of deals
stats-tricks-won = tricks
stats-lot-first-trick = Lot failed in the first trick: { $rate }% ± { $ci }% of declarations ({ $hits } of { $count })
stats-lot-by-position = The Lot by the declarer's position (0 = the first leader, { $last } = the dealer)
stats-lot-declarers = Lots
stats-lot-success = succeeded ± 95%
stats-lot-fail-first = failed in trick 1 ± 95%
stats-plot-lot = { $rules }: the Lot by the declarer's position
stats-axis-declarer = declarer's position (0 = first leader)
stats-axis-lot-share = share of that position's Lots
stats-rules-fired = Scoring rules that settled the deals
stats-plot-score = { $rules }: mean deal score by position ({ $better })
stats-plot-penalty = { $rules }: mean deal penalty by position ({ $better })
stats-plot-tricks = { $rules }: tricks won by position
stats-plot-deals = { $rules }: deals per game
stats-axis-position = position (0 = first leader)
stats-axis-score = score
stats-axis-penalty = penalty
stats-axis-tricks = tricks
stats-axis-share = share of deals
stats-axis-deals = deals
stats-axis-games = games
stats-legend-position = position { $p }
arena-title = { $rules }: { $unit } × { $rotations } seat rotations (duplicate)
arena-unit-deals = { $units ->
    [one] 1 deal
   *[other] { $units } deals
}
arena-unit-games = { $units ->
    [one] 1 game
   *[other] { $units } games
}
arena-bot = player
arena-mean-score = score ± 95%
arena-mean-penalty = penalty ± 95%
arena-vs-field = vs the field ± 95%
arena-win-rate = games won
arena-decision-ms = ms a decision
arena-bot-again = { $bot } #{ $n }
arena-explained = Share of the score variance explained by who plays: { $share }% ± { $ci }%
arena-scores-by-deal = Scores per deal and seat, { $better }.
arena-penalties-by-deal = Penalty points per deal and seat, { $better }.
arena-scores-by-game = Game totals per seat, { $better }.
arena-penalties-by-game = Penalty totals per seat, { $better }.

## torite analyse
analyse-title = { $game }: review of { $seats }, { $worlds } worlds a decision, seed { $seed }
analyse-deal = Deal { $number }
analyse-played = trick { $trick }, { $seat }: { $chosen } ({ $value })
analyse-better = , best { $best } ({ $best-value })
analyse-play = played { $card }
analyse-verdict-close = within the error
analyse-verdict-best = best
analyse-verdict-inaccuracy = inaccuracy
analyse-verdict-mistake = mistake
analyse-verdict-blunder = blunder
analyse-loss = , loss { $loss } ± { $stderr }
analyse-exact = ; every hand known { $chosen } (best { $best })
analyse-exact-unsolved = ; every hand known: too large to solve
analyse-line = { $played }{ $better }; { $verdict }{ $loss }{ $exact }
analyse-summary = { $seat }: { $decisions ->
    [one] 1 decision
   *[other] { $decisions } decisions
  }, loss { $loss }, { $inaccuracies ->
    [one] 1 inaccuracy
   *[other] { $inaccuracies } inaccuracies
  }, { $mistakes ->
    [one] 1 mistake
   *[other] { $mistakes } mistakes
  }, { $blunders ->
    [one] 1 blunder
   *[other] { $blunders } blunders
  }
analyse-seat-line = { $counts }; { $score }
analyse-score = scored { $score }, best sure with every hand known { $best }
analyse-score-unsolved = scored { $score }, best with every hand known too large to solve
analyse-score-open = the deal is unfinished
analyse-legend = Values: the seat's expected deal score from what it could know at the time (higher is better), ± one standard error. A loss from { $inaccuracy } points is an inaccuracy, from { $mistake } a mistake, from { $blunder } a blunder. "Every hand known": what the seat is sure of if all the cards are seen.
review-key = a: review your decisions of this deal
review-key-plain = (Answer a at your next turn to review your decisions of this deal.)
review-title = Your decisions in deal { $number }
review-line = trick { $trick }: { $chosen } { $value }{ $better }: { $verdict }
review-better = , best { $best } { $best-value }
review-none = You had no decision to make in this deal: every turn was forced.
review-legend = Values: your expected deal score from what you could know at the time (higher is better).
