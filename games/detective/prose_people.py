"""The prose of people: how the household's members look and talk (per role), how the
outsiders receive a detective, the frames their facts are spoken in, and the victim's story.

Narration here states nothing about the evening: no hour, no weapon, no motive, no room, and no
person but the speaker and the victim. Slots: ``{name}`` (a witness's first name) with
``{sub}`` / ``{obj}`` / ``{pos}`` (its pronouns: she, her, her), ``{title}`` (an outsider as
named in a sentence, "the vicar"), ``{victim}`` with ``{vsub}`` / ``{vobj}`` / ``{vpos}``, and
``{clause}`` in the frames of fact sentences. A witness's fact sentence always names the
witness, so a clause in the first person reads back on its own.
"""

from __future__ import annotations

ROLE_LINES: dict[str, tuple[str, ...]] = {
    "the butler": (
        "{name} stands very straight, in a black coat brushed to within an inch of its life.",
        "{name} has the grave, careful manner of a man who has kept a great many secrets.",
        "{name} answers each question with a small bow, as though taking an order.",
        "{sub} has served the {family} family for years and speaks of it as a soldier speaks of a "
        "regiment.",
        "Even now, {name} cannot help glancing at the silver to see that it is straight.",
        "{pos} voice never rises above the level proper to a servant in the presence of guests.",
    ),
    "the lady's maid": (
        "{name} is neat as a pin, her cap and apron starched so stiff they crackle.",
        "{name} has the quick eyes of someone who notices every stain and every tear.",
        "{sub} sits with a workbasket on her knee and darns as she talks.",
        "{name} has dressed hair at {house} every morning for years and misses nothing.",
        "{sub} speaks quietly, as a lady's maid learns to speak in a great house.",
        "Now and then {name} smooths her apron, though it has no crease in it.",
    ),
    "the cook": (
        "{name} wipes floury hands on an apron before sitting down to talk.",
        "{name} is broad and red-faced from years of standing over a range.",
        "{sub} keeps one ear on a pan left simmering, and one eye on the clock.",
        "{name} has opinions on everyone in the house and is not shy of them.",
        "A smell of baking comes in with {name}, and with it a kind of comfort.",
        "{sub} talks of the appetites of the {family} family as others talk of their characters.",
    ),
    "the gardener": (
        "{name} has earth under the fingernails and leaves a faint smell of bonfires behind.",
        "{name} turns a cap round and round in {pos} weathered hands.",
        "{sub} speaks slowly, like someone more used to plants than to people.",
        "{name} keeps looking at the window, as if the weather mattered more than anything.",
        "{pos} boots have been left at the door, and {sub} stands in thick grey socks.",
        "{name} knows the grounds of {house} as well as {pos} own face, and says so.",
    ),
    "the family solicitor": (
        "{name} is dry and precise, and looks at you over the top of {pos} spectacles.",
        "{name} chooses every word as if it might be read aloud in court.",
        "{sub} keeps a hand on a leather document case and never lets go of it.",
        "{name} reminds you twice that {sub} is here as a friend of the family, not in {pos} "
        "professional capacity.",
        "{sub} taps a pencil against {pos} teeth while {sub} thinks.",
        "{name} is the only person at {house} who seems to have slept well.",
    ),
    "the housekeeper": (
        "{name} wears a chatelaine of little tools at her belt, and it chinks when she moves.",
        "{name} is a tall, upright woman in black who has run {house} for years.",
        "{sub} answers like someone giving evidence, and perhaps she has been rehearsing.",
        "{name} notes the dust on your shoes with a housekeeper's disapproval.",
        "{sub} keeps glancing at a list in her pocket of things still to be done today.",
        "{name} speaks of the servants as her girls, and of the family with great care.",
    ),
    "the steward": (
        "{name} carries a ledger under his arm and sets it down squarely in front of him.",
        "{name} is a spare, tidy man with a pencil behind one ear.",
        "{sub} answers like someone giving evidence, and perhaps he has been rehearsing.",
        "{name} knows the price of everything in the house and mentions a good deal of it.",
        "{sub} keeps a watch chain which he winds and unwinds round one finger.",
        "{name} speaks of the business of {house} as if it were his own.",
    ),
    "the chauffeur": (
        "{name} still wears the grey uniform of {pos} trade, the cap tucked under one arm.",
        "{name} smells faintly of petrol and polish.",
        "{sub} is young and sure of {obj}self, and not much impressed by detectives.",
        "{name} rubs at a smear of oil on {pos} thumb as {sub} talks.",
        "{sub} sits astride a chair turned back to front, arms folded on its back.",
        "{name} speaks of the motor car with more warmth than of anyone at {house}.",
    ),
    "a visiting cousin": (
        "{name} is dressed for the town rather than the country, and plainly feels it.",
        "{name} has come down for a few days and wishes aloud to be gone again.",
        "{sub} lights one cigarette from the end of another while {sub} talks.",
        "{name} treats the whole affair as a dreadful inconvenience, then remembers to look sorry.",
        "{sub} speaks of the {family} family with the easy scorn of a poor relation.",
        "{name} looks round the room as if pricing its contents.",
    ),
    "the private secretary": (
        "{name} is pale and precise, with ink on the second finger of the right hand.",
        "{name} has brought a notebook and consults it before answering anything.",
        "{sub} speaks quickly and correctly, like someone used to taking dictation.",
        "{name} straightens the papers on the nearest table without seeming to notice.",
        "{sub} knows the date of every letter {house} has sent in a year.",
        "{name} seems more worried about unfinished correspondence than anything else.",
    ),
    "the nurse": (
        "{name} is calm and capable, in a uniform so starched it could stand up alone.",
        "{name} has the steady hands and level voice of {pos} profession.",
        "{sub} watches you as a nurse watches a patient, weighing how much you can bear.",
        "{name} speaks of death plainly, as someone who has seen a good deal of it.",
        "{sub} rolls {pos} sleeves down and buttons the cuffs before sitting down.",
        "{name} asks whether you have eaten since you reached {house}, and seems to disapprove of "
        "the answer.",
    ),
    "the tutor": (
        "{name} is young and shabby in a tweed jacket gone at the elbows.",
        "{name} talks as if giving a lesson, and catches himself at it.",
        "{sub} polishes his spectacles on his tie whenever a question is hard.",
        "{name} keeps a book under his arm, a finger marking the page.",
        "{sub} is plainly clever and plainly poor, and minds the second more than he shows.",
        "{name} speaks of the old books of {house} with real affection.",
    ),
    "the governess": (
        "{name} is neat and plain, in a grey dress with a white collar.",
        "{name} talks as if giving a lesson, and catches herself at it.",
        "{sub} sits with her hands folded and her feet together, as she would teach a child to "
        "sit.",
        "{name} keeps a book under her arm, a finger marking the page.",
        "{sub} is plainly clever and plainly poor, and minds the second more than she shows.",
        "{name} speaks of her pupils with a warmth she shows for nothing else.",
    ),
    "an old army friend": (
        "{name} is a big, weathered man with a clipped moustache and a loud voice.",
        "{name} speaks of old campaigns at the slightest excuse.",
        "{sub} stands with his hands behind his back, as if on parade.",
        "{name} keeps calling you old chap, and looks at you as if you were a junior officer.",
        "{sub} limps a little, from a wound he does not mention.",
        "{name} has the brown skin and pale eyes of a man who served in hot countries.",
    ),
    "an old school friend": (
        "{name} is brisk and sensible, in tweeds and stout shoes.",
        "{name} speaks of schooldays at the slightest excuse.",
        "{sub} sits with her hands in her lap and her chin up, as if facing a headmistress.",
        "{name} keeps calling you my dear, and looks at you as if you were a new girl.",
        "{sub} has a laugh too loud for the occasion, and stops it quickly.",
        "{name} has known the {family} family longer than anyone and reminds you of it.",
    ),
    "the stable master": (
        "{name} is bow-legged and leathery, and smells of horses.",
        "{name} slaps a pair of riding gloves against {pos} palm while {sub} talks.",
        "{sub} speaks of the horses by name, and of the {family} family by title.",
        "{name} has a scar across the back of one hand, from a horse that bit.",
        "{sub} stands by the door, as if {sub} expected to be called away to the yard.",
        "{name} has straw on {pos} breeches and does not care who sees it.",
    ),
    "the parlourmaid": (
        "{name} is young and nervous, in a black dress and a white apron.",
        "{name} curtseys when you come in and again when you speak to her.",
        "{sub} keeps her eyes on the floor and her hands under her apron.",
        "{name} has waited at table every night this month and knows everyone's habits.",
        "{sub} answers in a whisper, so that you have to lean forward to hear.",
        "{name} blushes whenever you look up from your notebook.",
    ),
}
"""Per role of a suspect, narration only a witness of that role has."""

WITNESS_OPENINGS: tuple[str, ...] = (
    "{name} agrees to see you, though not for long.",
    "You send for {name}, who comes at once and stands twisting {pos} hands.",
    "{name} is waiting for you, sitting very straight on a hard chair.",
    "When you ask for a word, {name} nods and shuts the door behind the two of you.",
    "{name} has plainly been expecting you, and not looking forward to it.",
    "It takes some time to find {name}, who seems to have been keeping out of everyone's way.",
    "{name} rises when you come in and does not sit down again until you do.",
    "You catch {name} alone, which is what you wanted.",
    "{name} answers your knock at once, as though {sub} had been standing by the door.",
    "A servant fetches {name}, who comes in looking as if {sub} would rather not.",
)
"""The first sentence of a witness's card."""

WITNESS_LINES: tuple[str, ...] = (
    "{name} looks pale and tired, as anyone at {house} would after such a night.",
    "{sub} twists a handkerchief between {pos} fingers while you talk of {victim}.",
    "{name} asks more than once whether the police will be long.",
    "{name} speaks slowly, weighing every word before letting it go.",
    "{name}'s eyes keep straying to the door whenever footsteps pass outside.",
    "{name} answers your questions politely, but offers nothing more.",
    "Now and then {name} stops in the middle of a sentence and has to begin again.",
    "{name} has not slept, by the look of {obj}, and has not tried to hide it.",
    "{name} keeps {pos} hands folded in {pos} lap, very still.",
    "Once or twice {name} glances at your notebook, as if to read what you have written.",
    "\u201cIt is a dreadful business,\u201d {name} says, and seems to mean it.",
    "\u201cI shall not sleep at {house} again if I can help it,\u201d {name} says.",
    "{name} sits on the edge of {pos} chair, as though ready to leave at any moment.",
    "{name} speaks of {victim} carefully, choosing only kind words.",
    "{name} fidgets with a button on {pos} cuff until it comes loose.",
    "\u201cYou will want to know everything, I suppose,\u201d {name} says with a sigh.",
    "{name}'s voice is steady, though {pos} hands are not.",
    "{name} answers quickly, as though the answers had been ready for some time.",
    "When you mention {victim}, {name} looks away for a moment.",
    "{name} clears {pos} throat before every answer.",
    "\u201cI have told the police all this already,\u201d {name} says wearily.",
    "{sub} asks whether it is true that the {family} family have sent for the newspapers.",
    "\u201c{victim} was not an easy person to know,\u201d {name} says.",
    "{name} has been crying, and is not ashamed of it.",
    "\u201cNothing like this has ever happened at {house},\u201d {name} says.",
    "{sub} speaks of {victim} in the present tense, and has to stop and begin again.",
    "{sub} asks you, more than once, what will become of {house} now.",
)
"""Narration any witness may have."""

WITNESS_CLOSINGS: tuple[str, ...] = (
    "You thank {name} and leave {obj} to {pos} thoughts.",
    "{name} seems relieved when you close your notebook.",
    "When you get up to go, {name} does not rise to see you out.",
    "\u201cIs that all?\u201d asks {name}, and you say that it is, for now.",
    "You leave {name} staring at nothing in particular.",
    "{name} watches you go without a word.",
    "At the door you look back, and {name} has not moved.",
    "You leave {name} with a promise to come back if there is more to ask.",
)
"""The last sentence of a witness's card."""

WITNESS_FRAMES: tuple[str, ...] = (
    "\u201c{clause},\u201d says {name}.",
    "\u201c{clause},\u201d {name} tells you.",
    "{name} is quite sure of one thing: \u201c{clause}.\u201d",
    "\u201c{clause}, and I would swear to it,\u201d says {name}.",
    "{name} lowers {pos} voice: \u201c{clause}.\u201d",
    "\u201cIf it is any help to you, {clause},\u201d {name} offers.",
    "\u201c{clause}, and I told the police as much,\u201d says {name}.",
    "At last {name} comes out with it: \u201c{clause}.\u201d",
    "\u201c{clause},\u201d {name} says, and will not add another word.",
    "\u201cYou may as well know it: {clause},\u201d {name} says.",
    "\u201cI remember it well: {clause},\u201d says {name}.",
    "{name} thinks before answering: \u201c{clause}.\u201d",
    "\u201c{clause},\u201d {name} repeats, as if you might doubt it.",
    "\u201cWrite this down if you like: {clause},\u201d says {name}.",
    "{name} looks you in the eye: \u201c{clause}.\u201d",
    "\u201cThere is one thing I can tell you: {clause},\u201d {name} says.",
)
"""Fact sentences of a witness: its own words, naming it."""

OFFICIAL_LINES: dict[str, tuple[str, ...]] = {
    "surgeon": (
        "The police surgeon is a brisk little man who washes his hands twice while you talk.",
        "His surgery smells of carbolic and pipe tobacco, and a skeleton grins in one corner.",
        "He was up half the night over {victim} and says so more than once.",
        "Glass-fronted cabinets of instruments line the wall behind his desk.",
        "He talks of the dead with a cheerful lack of feeling that you find oddly restful.",
        "A case of notes lies open on his desk, written in a hand only a doctor could read.",
        "He offers you a chair that is still warm from the last patient.",
        "He has written {victim}'s name at the top of a fresh page, and underlined it twice.",
        "He has been to {house} on sadder errands than most, he says, but never one like this.",
        "He asks whether the {family} family mean to keep the matter quiet.",
    ),
    "inn": (
        "The village inn is low and dark, with a fire of logs that smokes in the wind.",
        "The landlord polishes a glass that is already clean while he talks.",
        "A pair of old men playing dominoes in the corner stop to listen, and pretend not to.",
        "Horse brasses gleam on every beam, and the floor is sanded.",
        "The landlord is a vast man with a soft voice, who hears everything said in his bar about "
        "{house}.",
        "A dog asleep under a settle thumps its tail once at your arrival.",
        "He draws you a half of cider without asking and pushes it across the bar.",
        "The servants from {house} drink here on their evenings off, and he knows them all.",
        "A faded print of {house} in its grander days hangs behind the bar.",
        "He speaks of {victim} with the caution of a man who did business with {house}.",
    ),
    "coroner": (
        "The coroner's office is two rooms over the corn exchange, stacked to the ceiling with "
        "files.",
        "The clerk is a thin young man with sleeve protectors and a cold in the head.",
        "He finds the right file at once, which seems to surprise him as much as you.",
        "The file marked {family} is already thicker than he would like.",
        "He spells {victim}'s name aloud as he writes it, to be sure of it.",
        "He has a dozen forms to fill in about {house} and means to fill in every one.",
        "A kettle sings on a gas ring in the corner, and he makes tea without asking.",
        "He reads from his papers in a flat voice, as if reading a railway timetable.",
        "Rain or shine, the office smells of dust and red tape.",
        "He reminds you that the inquest on {victim} is not until the end of the week.",
    ),
    "station": (
        "The railway station is a single platform, a waiting room and a bed of marigolds.",
        "The stationmaster takes great pride in his flowerbeds and shows them to you first.",
        "A goods train clanks through without stopping while you wait.",
        "He consults a large watch on a chain and tells you how late the last train ran.",
        "Posters of seaside towns fade on the walls of the waiting room.",
        "He remembers {victim} catching the London train, always in the same carriage.",
        "The {family} family have their own waiting room, he tells you, though nobody has used it "
        "in years.",
        "He points up the line towards {house}, as if you might not know where it is.",
        "He knows the face of everyone from {house} who has bought a ticket here in twenty years.",
        "The booking office has a little window with a brass grille, and he talks through it.",
    ),
    "vicarage": (
        "The vicarage is a rambling house with a wet garden and a great many bicycles.",
        "The vicar is a gentle, untidy man with a sermon half written on his desk.",
        "His wife brings tea and stays to hear what you have to say.",
        "He speaks of the {family} family with charity, but not with blindness.",
        "His den is full of books, fishing tackle and parish magazines.",
        "He has buried three generations of the {family} family and christened two.",
        "He will take the service for {victim} himself, he says, though he dreads it.",
        "A photograph of the choir outing, with half of {house} in it, stands on his desk.",
        "He offers to pray for the household at {house}, and you thank him.",
    ),
    "newspaper": (
        "The newspaper's office smells of ink and hot metal from the press below.",
        "The editor is a stout man in shirtsleeves with a green eyeshade.",
        "Back numbers lie in yellowing bundles along every wall.",
        "He wants to know more from you than he means to tell, and you both know it.",
        "The clatter of the press comes up through the floorboards as he talks.",
        "The headline about {house} is already set in type downstairs, he admits.",
        "He has written {victim}'s obituary already, and reads you the first line.",
        "He would give a great deal for a photograph of the {family} family this week.",
        "He keeps a file of cuttings on the {family} family as thick as your wrist.",
        "He offers you a cigarette and lights one himself when you refuse.",
    ),
    "chemist": (
        "The chemist's shop has great glass carboys of coloured water in the window.",
        "The chemist is a small, precise man in a white coat, smelling of cloves.",
        "Rows of little drawers with Latin labels climb the wall behind the counter.",
        "He weighs out a powder for another customer before he asks what brings you from {house}.",
        "A brass scale on the counter is so clean it shines like gold.",
        "He made up {victim}'s sleeping draught for years, and says so with an odd pride.",
        "A bill from {house} for soap and lavender water lies half written on the counter.",
        "He has served the {family} family since before the war.",
        "He keeps his poisons book under the counter and his opinions to himself, or so he says.",
        "The bell over the door rings twice while you talk, and he ignores it both times.",
    ),
    "bank": (
        "The bank is a narrow building of grey stone with brass rails at the counter.",
        "The manager receives you in a back room with a large safe and a small window.",
        "He is a plump man with a gold watch chain and a careful smile.",
        "Ledgers bound in red leather fill a glass case behind his desk.",
        "He reminds you that the affairs of the {family} family are confidential, and then talks "
        "freely.",
        "A clerk comes in with papers and is waved out again.",
        "He has known {victim} across this desk for twenty years.",
        "The {family} accounts, he says, are the oldest in the bank.",
        "He sends a boy to {house} with a letter every Friday, and means to go on doing it.",
        "He speaks of money as other men speak of the weather, a thing always changing.",
    ),
    "post": (
        "The post office is also the village shop, and smells of paraffin, soap and humbugs.",
        "The postmistress is a small, bright-eyed woman who reads every postcard that passes "
        "through her hands.",
        "She sorts the afternoon letters into pigeonholes as she talks, never looking at them.",
        "A bell over the door rings every time a child comes in for sweets.",
        "She knows the handwriting of everyone at {house} and says so with some pride.",
        "A notice on the counter lists the times of the posts, three of them crossed out.",
        "She leans on the counter and drops her voice, though the shop is empty.",
    ),
    "doctor": (
        "The family doctor lives in a square red house with a brass plate on the gate.",
        "He is an old man with a white beard and the gentle manner of a country practice.",
        "He has attended the {family} family for thirty years and brought half of them into the "
        "world.",
        "His consulting room smells of ether and old books.",
        "He keeps his hat and bag on a chair by the door, ready for the next call.",
        "He speaks of {victim} as a patient, with a patient's secrets kept close.",
        "A portrait of his own old teacher frowns down from over the fireplace.",
    ),
    "dressmaker": (
        "The dressmaker's front room is full of half-made gowns pinned on dummies.",
        "The dressmaker talks with pins in her mouth and takes them out one at a time.",
        "She has made clothes for every woman at {house} and knows all their measurements and most "
        "of their secrets.",
        "Fashion plates from London are pinned round the mirror, curling at the corners.",
        "A treadle machine stands in the window to catch the light.",
        "She offers you a chair after clearing it of patterns and scraps of silk.",
        "Her cat sleeps in a basket of remnants and does not stir for you.",
    ),
}
"""Per outsider, narration only its location has."""

OUTSIDER_LINES: tuple[str, ...] = (
    "{sub} has heard the news from {house} already, as the whole district has.",
    "{sub} asks after the {family} family before you can ask anything at all.",
    "Twice {short} is called away for a moment and comes back apologising for keeping you from "
    "{house}.",
    "{sub} speaks of the {family} family carefully, like someone who knows that words travel in a "
    "village.",
    "{short} has known the {family} family for many years, and it shows in every answer.",
    "{sub} offers you tea, and you accept, since talk of {victim} comes more easily over a cup.",
    "{short} lowers {pos} voice whenever {victim}'s name comes up.",
    "{sub} seems glad of the chance to talk about {house} instead of the weather.",
    "Now and then {short} stops to think of {victim}, and you let the silence run.",
    "{sub} is curious about your methods and asks more than one question about {house} of {pos} "
    "own.",
    "{short} cannot get over it: {victim}, of all people.",
    "{sub} remembers {victim} as a younger, kinder person, and says so.",
    "Everyone in the district, {short} tells you, is talking of nothing but {house}.",
    "{sub} shakes {pos} head over {victim} and says it does not bear thinking about.",
    "{short} had seen {victim} in the village only last week, looking well.",
    "{sub} wonders aloud what will become of {house} and everyone in it.",
    "{short} asks whether the {family} family will sell up now, and does not wait for an answer.",
    "{sub} glances at the clock once or twice, but does not hurry you.",
    "{short} speaks well of {victim}, though you have the feeling it costs {obj} something.",
    "{sub} has a long memory for the doings of {house}, and most of it is kind.",
    "{short} takes off {pos} spectacles, rubs {pos} eyes, and puts them on again.",
)
"""Narration any outsider's card may have (``{short}``: the outsider's short name)."""

OFFICIAL_OPENINGS: tuple[str, ...] = (
    "You call on {title}, who receives you at once and asks for news of {house}.",
    "{title} has been expecting someone from {house} and comes straight to the point.",
    "It is a short walk from {house} into the village to see {title}.",
    "{title} keeps you waiting a few minutes, then apologises handsomely and asks after {house}.",
    "You find {title} at work and willing to be interrupted, for {victim}'s sake.",
    "{title} shakes your hand warmly and asks what you need for the {family} case.",
)
"""The first sentence of an outsider's card."""

OFFICIAL_CLOSINGS: tuple[str, ...] = (
    "You thank {short} and take your leave, and walk back up the hill to {house}.",
    "{short} sees you to the door and wishes you luck with the {family} affair.",
    "{short} promises to send word to {house} if anything more comes to mind.",
    "You walk back to {house} turning over what {short} told you.",
    "{short} is already back at work before you reach the door, {victim} or no {victim}.",
)
"""The last sentence of an outsider's card."""

OFFICIAL_FRAMES: tuple[str, ...] = (
    "{title} tells you that {clause}.",
    "{title} has it on good authority that {clause}.",
    "From {title} you learn that {clause}.",
    "{title} is able to confirm that {clause}.",
    "{title} points out that {clause}.",
    "{title} is prepared to swear that {clause}.",
    "{title} mentions, almost in passing, that {clause}.",
    "{title} has written it down in a neat hand: {clause}.",
    "\u201cI can tell you this much: {clause},\u201d says {title}.",
    "{title} leans forward and says quietly that {clause}.",
    "After turning over some papers, {title} tells you that {clause}.",
    "\u201c{clause}, and you may quote me,\u201d says {title}.",
)
"""Fact sentences of an outsider."""

EXAMINER_FRAMES: tuple[str, ...] = (
    "{title} has examined the body and reports that {clause}.",
    "\u201cThere is no doubt about it: {clause},\u201d says {title}.",
    "According to the report {title} gives you, {clause}.",
    "The notes {title} made at the examination say that {clause}.",
    "{title} is certain on one point: {clause}.",
    "{title} turns to the report of the examination, which says that {clause}.",
)
"""Fact sentences of the police surgeon and the coroner's clerk about the body."""

POLICE_FRAMES: tuple[str, ...] = (
    "The police have already established that {clause}.",
    "The inspector's notes say that {clause}.",
    "A constable who questioned the household found that {clause}.",
    "It is already known that {clause}.",
    "The inspector is satisfied that {clause}.",
    "The constable's notebook records that {clause}.",
)
"""Fact sentences of the introduction: what the police already know."""

VICTIM_LINES: dict[str, tuple[str, ...]] = {
    "gentry": (
        "{victim} had lived at {house} for most of {vpos} life and ruled it without question.",
        "{victim} was admired in the county and liked by rather fewer people than admired {vobj}.",
        "{victim} kept the house as {vpos} parents had kept it, down to the hour of dinner.",
    ),
    "a shipping magnate": (
        "{victim} made a fortune in ships and bought {house} with a small part of it.",
        "{victim} ran {vpos} fleet from {house} by telephone and telegram.",
        "{victim} was feared in the City and not much loved at home.",
    ),
    "a celebrated novelist": (
        "{victim}'s novels sold in their thousands and were read on every railway platform.",
        "{victim} wrote every morning behind a closed door and would not be disturbed for "
        "anything.",
        "{victim} had a habit of putting friends into books, and few of them thanked {vobj} for "
        "it.",
    ),
    "a retired colonel": (
        "{victim} had come home from India with a liver, a temper and a great many stories.",
        "{victim} ran {house} like a regiment, with the gong for meals at the stroke of the hour.",
        "{victim} was generous to old comrades and merciless to everyone else.",
    ),
    "a retired headmistress": (
        "{victim} had ruled a great girls' school for thirty years and ran {house} the same way.",
        "{victim} still spoke to grown men as though they had come to {vobj} without their "
        "homework.",
        "{victim} had retired to {house} for quiet and found very little of it.",
    ),
}
"""Per victim's role (or ``gentry`` for any), sentences about the victim's life."""

HOUSE_LINES: tuple[str, ...] = (
    "{house} is a rambling house of grey stone, added to by every generation and finished by none.",
    "Ivy covers half the front of {house}, and rooks wheel over its chimneys.",
    "The house stands at the end of a long drive between limes, with the park falling away on "
    "every side.",
    "Inside, the house is all dark panelling, cold corridors and the ticking of clocks.",
    "It is the sort of house where the servants know everything and say nothing.",
)
"""Narration about the house in the introduction."""

ARRIVAL_LINES: tuple[str, ...] = (
    "The local police admit they are out of their depth, and a telegram calls you down by the "
    "first train.",
    "The inspector meets you at the door, plainly relieved to hand the matter over.",
    "A constable shows you in and leaves you with the inspector, who looks as if he has not slept.",
)
"""How the detective is brought in, in the introduction."""

HOUSEHOLD_LINES: tuple[str, ...] = (
    "Everyone in the house has a reason to look frightened this morning, and most of them do.",
    "The household has been told to keep to the house until you have spoken with them all.",
    "They are gathered together when you arrive, and they fall silent as you come in.",
)
"""Narration about the household in the introduction."""
