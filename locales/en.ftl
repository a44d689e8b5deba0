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
trick-won-by = { $seat } wins the trick
action-lot = Declare the Lot
action-pass = Pass
action-call = Name { $suit }

## Questions
lot-question = Declare the Lot (win every trick)?
lot-question-first-card = You may declare the Lot as you play your first card.
call-question = You led the joker: name the suit the others must follow.
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
help-keys = ←/→ choose · Enter play · 1–9 pick · ? rules · h hint · l last trick · q quit
help-plain = Type the number of an action or its code (AS, 10H, lot, pass, call:S). ? rules, h hint, l last trick, q quit.
rules-title = Rules: { $name }

## Score keeping (games played with real cards)
score-title = Score sheet: { $name }
score-help = Enter each deal's facts. Numbers are separated by spaces, one per seat in seat order. u undoes the last deal, q saves and quits.
score-deal = Deal { $number } (dealer: { $dealer })
ask-lot = Lot declared? The declaring seats, or - for none:
ask-lot-winner = Did a declarer win every trick? Its seat, or - for no:
ask-tricks = Tricks won per seat ({ $count } numbers adding up to { $total }):
ask-points = Card points per seat ({ $count } numbers adding up to { $total }):
ask-draw = Seats { $seats } tie: which of them drew the highest card?
bad-entry = Not accepted: { $why }
bad-numbers = expected { $count } whole numbers
undone = Deal { $number } removed.
sheet-saved = Score sheet saved to { $path }
