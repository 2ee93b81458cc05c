"""The prose of rooms: what each room of the word pools looks, smells and sounds like, the
sentences that walk a reader through a room, the weather at its windows, the room of the body,
and the things in a room where a written clue is found.

Narration here states nothing about the evening: no hour, no weapon, no motive, no person but
the victim, and no room but its own. Templates name their slots: ``{place}`` (the room),
``{furniture}``, ``{smell}`` and ``{sound}`` (from the room's own lists), ``{victim}`` (the
victim's first name) with ``{vsub}`` / ``{vobj}`` / ``{vpos}`` (its pronouns), and ``{clause}``
in the frames of fact sentences.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Room:
    """A room's own words: outdoors or not, the furniture clues are found on, beside, under or
    behind, its smells and sounds, sentences only it has, and whether it has no windows."""

    outdoor: bool
    furniture: tuple[str, ...]
    smells: tuple[str, ...]
    sounds: tuple[str, ...]
    sights: tuple[str, ...]
    windowless: bool = False


WINDOW_WORDS = ("window", "glass", "curtain", "sill", "pane", "sun")
"""Words of narration a room without windows cannot have."""


ROOMS: dict[str, Room] = {
    "hall": Room(
        False,
        ("oak settle", "umbrella stand", "marble-topped side table", "coat stand"),
        ("floor polish and damp coats", "cold stone and beeswax"),
        ("the slow tick of the long-case clock", "the front door rattling on its latch"),
        (
            "A wide staircase climbs from the middle of the {place} to a gallery hung with dark "
            "portraits.",
            "The black and white flagstones have been scrubbed so often that the black squares "
            "look grey.",
            "A pair of antlers hangs over the front door, a forgotten hat still caught on one of "
            "its tines.",
            "The great fireplace is cold, and a draught moans somewhere up its chimney.",
            "A brass gong on a carved stand waits at the foot of the stairs to call {house} to "
            "meals.",
            "The {family} arms are carved in the stone over the great fireplace, worn soft with "
            "age.",
            "A visitors' book lies open on a lectern by the door, its last page signed weeks ago.",
            "Walking sticks of every length lean together in a stand by the door, one of them "
            "{victim}'s.",
            "Light from the fanlight over the door lies in a pale half-circle on the floor.",
        ),
    ),
    "library": Room(
        False,
        ("reading table", "library steps", "card catalogue", "leather armchair"),
        ("old paper and leather", "pipe smoke gone stale"),
        ("the creak of the floorboards under the carpet", "a wasp knocking against the glass"),
        (
            "Books climb from floor to ceiling on every wall, their gilt titles dulled by years of "
            "smoke.",
            "A ladder on brass rails stands at one end of the shelves, pushed back where it always "
            "stands.",
            "A reading lamp with a green shade has been left burning, pale against the daylight.",
            "Several volumes lie face down on the window seat, their spines cracked open.",
            "A bust of some bearded philosopher frowns down from the top of a bookcase.",
            "Half the books bear the {family} bookplate, and half of those have never been cut.",
            "A chair by the window still holds the shape of {victim}, who liked to read there.",
            "The dust on the upper shelves has not been disturbed in a very long time.",
            "A row of bound sermons, never opened, fills an entire shelf by the door.",
        ),
    ),
    "study": Room(
        False,
        ("writing desk", "filing cabinet", "wing chair", "bookcase"),
        ("ink and cigar smoke", "sealing wax and old leather"),
        ("the scratch of a branch against the window", "the tick of a carriage clock"),
        (
            "Papers are stacked on every flat surface of the {place}, each pile held down by some "
            "small weight.",
            "A tray of pens and a stand of inks sit squarely in the middle of the desk.",
            "A framed map of the county, brown with age, hangs above the mantelpiece, with {house} "
            "marked in red ink.",
            "A photograph of {victim} as a young person stands on the desk in a tarnished frame.",
            "The blinds are half drawn, so the {place} lies in a striped and dusty light.",
            "A humidor stands open on a side table, half full.",
            "A worn rug in front of the desk shows where a chair has been pushed back and forth "
            "for years.",
            "A row of account books with cracked spines fills the lowest shelf.",
        ),
    ),
    "kitchen": Room(
        False,
        ("scrubbed deal table", "dresser", "bread crock", "flour bin"),
        ("bread, onions and coal smoke", "scalded milk and carbolic soap"),
        ("the hiss of a kettle on the range", "the drip of the scullery tap"),
        (
            "The great black range takes up most of one wall, and its brass rail shines.",
            "Copper pans hang in order of size above the range, each one polished to a glow.",
            "A row of bells on springs hangs over the door, each labelled with the room it "
            "answers.",
            "A side of bacon and strings of onions hang from hooks in the beams.",
            "The long table has been scrubbed so many times that its grain stands up in ridges.",
            "A cat asleep on the warm hearth opens one eye at you and closes it again.",
            "A menu for a dinner {victim} will never eat is chalked on a slate by the range.",
            "The {family} crest is stamped on every copper pan, half polished away.",
            "Bowls of dough stand under cloths along the windowsill, rising slowly.",
        ),
    ),
    "pantry": Room(
        False,
        ("marble slab", "shelf of preserves", "meat safe", "bread bin"),
        ("cold stone, cheese and vinegar", "apples and sealing wax"),
        ("the buzz of a fly against the gauze", "nothing at all but your own breathing"),
        (
            "Shelves of jars climb every wall of the {place}, each one labelled in a careful hand.",
            "A ham in a muslin bag hangs from a hook in the ceiling.",
            "Jars of {victim}'s favourite marmalade stand in a row on the top shelf.",
            "The {family} silver has a cupboard of its own, lined with green baize.",
            "The {place} is narrow and cold, lit only by a small window with a gauze screen.",
            "Rows of jellies glow red and amber where the light catches them.",
            "The silver is kept here in baize-lined drawers, each piece in its own slot.",
            "A slate by the door lists the stores in chalk, half of it rubbed out.",
        ),
    ),
    "cellar": Room(
        False,
        ("wine rack", "cask", "coal heap", "workbench"),
        ("damp earth and spilt wine", "coal dust and mildew"),
        ("water dripping somewhere in the dark", "the scurry of something small"),
        (
            "Stone steps worn into hollows lead down into the {place}.",
            "Racks of dusty bottles stretch back further than your lamp can reach.",
            "The vaulted ceiling is low enough that you have to stoop under the arches.",
            "Cobwebs hang thick in the corners, grey with coal dust.",
            "Some of the bottles were laid down by {victim}'s grandfather, by the labels on the "
            "bins.",
            "The cellar book on its nail lists every bottle the {family} family have drunk in "
            "years.",
            "A single bulb on a flex gives a weak yellow light over the nearest racks.",
            "The walls sweat with damp, and the floor is gritty underfoot.",
            "An old mangle and a broken chair have been pushed into a corner and forgotten.",
        ),
        windowless=True,
    ),
    "conservatory": Room(
        False,
        ("cane chair", "staging of pots", "wrought-iron table", "plant stand"),
        ("wet earth and lilies", "warm leaves and paraffin"),
        ("the drip of water from the glass", "the tick of the hot-water pipes"),
        (
            "Glass arches overhead, fogged at the edges with warmth.",
            "Palms and tree ferns crowd the narrow paths between the staging.",
            "A vine trained along the roof wires hangs with small green grapes.",
            "A wicker chair with a tartan rug is where {victim} liked to sit, the servants say.",
            "A brass plate on the door says the {place} was built for the {family} family long "
            "ago.",
            "The tiled floor is wet where the plants have been watered.",
            "Orchids in wire baskets hang at eye level, their roots trailing in the air.",
            "A paraffin heater in the corner gives off a faint warm smell.",
            "A watering can stands on a stool, half full and beaded with drops.",
        ),
    ),
    "ballroom": Room(
        False,
        ("grand piano", "gilt chair", "dais for the band", "console table"),
        ("French chalk and dust sheets", "old flowers and floor wax"),
        ("your footsteps echoing back from the far wall", "a loose pane humming in the wind"),
        (
            "Chandeliers wrapped in holland bags hang like great pale fruit from the ceiling.",
            "The sprung floor gives a little under your feet.",
            "A faded programme from some long-ago {family} ball lies forgotten under a chair.",
            "Nobody has danced at {house} in years, by the look of the {place}.",
            "Tall mirrors line one wall, so that the {place} seems twice its size.",
            "Gilt chairs stand in a row against the wall, waiting for a dance that has not come.",
            "The shutters are half closed, and the light lies across the floor in long bars.",
            "A painted ceiling shows gods at a feast, flaking a little at the corners.",
            "Dust sheets cover most of the furniture, so the {place} is full of pale shapes.",
        ),
    ),
    "dining room": Room(
        False,
        ("sideboard", "long table", "carving table", "side chair"),
        ("beeswax and old gravy", "cold ashes and silver polish"),
        ("the clink of the chandelier's drops", "the tick of a gilt clock on the mantel"),
        (
            "The long table could seat twenty, though it is laid for no one today.",
            "Family portraits in heavy frames look down from every wall.",
            "A silver epergne stands in the centre of the table, empty of fruit.",
            "The chair at the head of the table, {victim}'s chair, has been pushed in with care.",
            "The {family} crest is worked into the back of every chair.",
            "The chairs have been pushed back against the wall, as if after a hurried meal.",
            "A decanter on the sideboard has a finger of port left in it.",
            "The curtains are heavy crimson velvet, faded in stripes where the sun falls.",
            "A screen of painted leather hides the door the servants use.",
        ),
    ),
    "drawing room": Room(
        False,
        ("chesterfield", "card table", "writing bureau", "cabinet of china"),
        ("pot-pourri and coal smoke", "hothouse flowers going over"),
        ("a clock chiming softly on the mantelpiece", "the fire settling in the grate"),
        (
            "Chintz sofas and little tables crowd the {place}, each table crowded with photographs "
            "in silver frames.",
            "A fire has been lit and allowed to die down to a red glow.",
            "A half-finished piece of embroidery lies in a basket by the hearth.",
            "A photograph of {victim} in a silver frame has been turned to face the wall.",
            "The {place} is the one room at {house} that looks lived in.",
            "Tall windows look out over the lawns, their curtains looped back with tasselled ties.",
            "A card table stands open with a hand of patience laid out and never finished.",
            "Vases of lilies on the piano have begun to drop their pollen.",
            "The carpet is so thick that your steps make no sound at all.",
        ),
    ),
    "billiard room": Room(
        False,
        ("cue rack", "scoreboard", "leather settee", "smoking table"),
        ("stale cigars and green baize", "whisky and old leather"),
        ("the hiss of the gas lamps", "a bluebottle humming at the skylight"),
        (
            "The great table stands under a row of shaded lamps, its baize as smooth as a lawn.",
            "The balls lie where the last game left them, scattered across the cloth.",
            "A tiger's head snarls from the wall above the fireplace, its glass eyes dusty.",
            "Chalk dust lies in a fine blue film along the cushions of the table.",
            "A framed photograph of some {family} cricket team hangs crooked by the door.",
            "{victim}'s own cue hangs apart from the rest, in a case with a brass lock.",
            "Cues stand in a rack by the door, one of them set apart with a cracked tip.",
            "A raised leather settee runs along one wall, for watching the play.",
            "The marker board still shows the score of a game nobody finished.",
        ),
    ),
    "gun room": Room(
        False,
        ("glass-fronted cabinet", "cleaning bench", "boot rack", "game book stand"),
        ("oil and old tweed", "leather and cold metal"),
        ("the tick of the cooling stove", "a dog whining somewhere outside"),
        (
            "Cabinets with glass fronts line the walls, each with its brass lock.",
            "Boots and waders stand in a row beneath a line of waxed coats.",
            "A stuffed pike glares from a case above the door, caught by some {family} long dead.",
            "A brass plate on the cabinets names them the property of {victim}.",
            "The game book lies open on its stand, the columns of a past season filled in.",
            "Cartridge belts hang from pegs, stiff with age.",
            "A rack of fishing rods leans in a corner, their lines neatly wound.",
            "The window is barred, and the light through it falls in stripes on the floor.",
        ),
    ),
    "chapel": Room(
        False,
        ("lectern", "front pew", "altar rail", "bench by the door"),
        ("candle wax and cold stone", "damp hymn books and lilies"),
        ("the flutter of a bird trapped in the rafters", "your own footsteps on the stone"),
        (
            "Light comes through a stained-glass window in pools of red and blue on the floor.",
            "Memorial tablets to the family cover the walls, the oldest worn almost smooth.",
            "The pews are of dark oak, their cushions worn thin by generations of knees.",
            "A brass eagle spreads its wings on the lectern, a great bible open on its back.",
            "The altar cloth is embroidered in faded gold thread.",
            "The {family} family pew has a door of its own and a little cushion for each knee.",
            "A new brass plate waits on the wall, blank, as if for a name not yet cut.",
            "Hymn numbers from last Sunday are still slotted into the board by the door.",
            "The air in the {place} is so still that the dust hangs in the light.",
        ),
    ),
    "greenhouse": Room(
        True,
        ("potting bench", "rain barrel", "stack of seed trays", "rack of tools"),
        ("tomato leaves and damp earth", "warm glass and compost"),
        ("the drip of condensation", "the buzz of a bee against the panes"),
        (
            "Tomato plants tied to canes fill the {place} with their sharp green smell.",
            "Panes of whitewashed glass soften the light to a milky glow.",
            "Clay pots are stacked in towers beneath the staging.",
            "A hose lies coiled on the brick floor, still dripping.",
            "Seedlings stand in their trays in rows as straight as soldiers.",
            "Prize cards from the county show, won for {house}, are pinned along a beam.",
            "A label in {victim}'s hand marks a row of cuttings that will not be needed now.",
            "A thermometer nailed to a post reads warm even this early.",
            "A broken pane has been patched with sacking and string.",
        ),
    ),
    "stables": Room(
        True,
        ("saddle rack", "feed bin", "mounting block", "tack chest"),
        ("horses, hay and saddle soap", "warm straw and leather"),
        ("a horse stamping in its stall", "the chink of a bridle on its hook"),
        (
            "A row of loose boxes runs down one side of the yard, a head looking over each half "
            "door.",
            "Bridles and headcollars hang on pegs, each under a painted name.",
            "The cobbles have been swept, though wisps of straw have blown back in.",
            "A weathervane shaped like a running fox turns slowly on the clock tower.",
            "A grey mare watches you over her door and blows softly through her nose.",
            "A nameplate over one box reads the name of {victim}'s own horse.",
            "Rosettes won by {house} horses are nailed up in a faded row.",
            "The hayloft door above is open, and a chain hangs from its hoist.",
            "A water trough by the gate has a skin of green on it.",
        ),
    ),
    "boathouse": Room(
        True,
        ("boat rack", "coil of mooring line", "oar rack", "bench by the water"),
        ("river water and tar", "wet wood and weed"),
        ("water slapping against the piles", "the knock of a rowing boat against the jetty"),
        (
            "A skiff and a punt ride on the dark water under the boathouse roof.",
            "Oars and paddles stand upright in a rack along the back wall.",
            "The boards of the landing stage are slick with green.",
            "Light off the water ripples over the underside of the roof.",
            "Cushions for the punt are stacked on a shelf, faded by many summers.",
            "The skiff has {house} painted on its stern in flaking gold.",
            "An old photograph of a {family} regatta crew is nailed to a post.",
            "A lifebelt hangs on a nail, its name painted over long ago.",
            "Reeds have grown up thick around the water gate.",
        ),
    ),
    "gatehouse": Room(
        True,
        ("porter's bench", "window ledge", "sentry box", "stone trough"),
        ("woodsmoke and wet gravel", "ivy and old stone"),
        ("the squeak of the gate on its hinges", "rooks calling in the elms"),
        (
            "The gatehouse arch is thick with ivy, and the iron gates stand open beneath it.",
            "A small window in the lodge looks out on the drive, so that nobody passes unseen by "
            "day.",
            "The gravel of the drive has been raked smooth up to the arch.",
            "Stone lions crouch on the gateposts, their faces worn blank by weather.",
            "The {family} arms over the arch are so worn that only a stag can still be made out.",
            "A painted board by the gate says that {house} is private, and trespassers will be "
            "prosecuted.",
            "A bell pull hangs by the lodge door for visitors to ring.",
            "The lodge chimney sends up a thin thread of smoke.",
            "A bench under the arch is carved with initials from long ago.",
        ),
    ),
    "orchard": Room(
        True,
        ("apple ladder", "wheelbarrow", "old well", "beehive"),
        ("windfalls and cut grass", "ripe apples and damp bark"),
        ("wasps busy among the fallen fruit", "the creak of a branch in the wind"),
        (
            "Old apple trees lean at every angle, propped here and there on crutches of wood.",
            "Windfalls lie thick in the long grass, some bitten into by birds.",
            "Mistletoe hangs in dark balls from the highest branches.",
            "A path has been worn through the grass between the rows of trees.",
            "A scarecrow in an old frock coat stands guard over the plum trees.",
            "One tree bears a little painted sign saying it was planted by {victim} as a child.",
            "The apples of {house} are famous in the village, and you can see why.",
            "Baskets are stacked beneath the trees ready for picking.",
            "The grass under the trees is silver with dew.",
        ),
    ),
    "rose garden": Room(
        True,
        ("sundial", "stone bench", "trellis arch", "bird bath"),
        ("roses and wet box hedge", "damp earth and crushed petals"),
        ("a blackbird singing on the wall", "water trickling into the lily pool"),
        (
            "Box hedges clipped into neat squares enclose beds of standard roses.",
            "Petals lie scattered on the paths, brown at their edges.",
            "A weathered statue of a girl with a jar stands over the lily pool.",
            "Climbing roses cover the old brick walls to the very top.",
            "One rose on its little stake is named after {victim}.",
            "The {place} was laid out for some {family} bride, and nobody has changed it since.",
            "The gravel between the beds has been raked into careful lines.",
            "A kneeling mat lies forgotten beside one of the beds.",
            "Labels on little stakes name every rose in a faded hand.",
        ),
    ),
    "terrace": Room(
        True,
        ("stone balustrade", "garden table", "urn of geraniums", "steamer chair"),
        ("warm stone and lavender", "wet flagstones and moss"),
        ("a peacock calling from the lawn", "the wind in the cedar beyond the lawn"),
        (
            "The {place} runs the length of the house, its stone balustrade topped with urns.",
            "Steps lead down from the {place} to the lawn, flanked by clipped yews.",
            "Moss has crept between the flagstones where the sun never quite reaches.",
            "From the balustrade the lawns fall away towards a line of distant trees.",
            "A stone bench is carved with the {family} arms and a date nobody remembers.",
            "This is where {victim} took tea on fine afternoons, you are told.",
            "Cushions have been left out on the chairs and are dark with damp.",
            "A forgotten teacup stands on the balustrade, a leaf floating in it.",
            "The tall windows of the house look out over the {place}, blank in the light.",
        ),
    ),
    "attic": Room(
        False,
        ("tin trunk", "dressmaker's dummy", "rocking horse", "pile of hatboxes"),
        ("dust, mothballs and hot slate", "old cloth and mouse droppings"),
        ("the pigeons shuffling on the roof", "the wind sighing under the eaves"),
        (
            "The {place} runs the length of the house under the slates, crammed with the lumber of "
            "generations.",
            "Light comes in through a single dormer window thick with cobwebs.",
            "Trunks plastered with old steamer labels stand in a row under the eaves.",
            "A dressmaker's dummy in a faded gown stands like a silent guest.",
            "Paths have been cleared through the boxes, and dust lies thick on either side.",
            "A rocking horse with a worn mane stares out of the shadows.",
            "A trunk stencilled with {victim}'s initials stands apart from the rest.",
            "Generations of {family} children have left their toys up here to be forgotten.",
            "The floorboards are bare and loose, and every step makes one of them speak.",
        ),
    ),
    "nursery": Room(
        False,
        ("rocking chair", "toy cupboard", "fireguard", "washstand"),
        ("camphor and old wallpaper", "coal tar soap and chalk"),
        ("a clock ticking in the corridor", "a sash rattling in its frame"),
        (
            "Bars still cover the lower panes of the windows, from when the room had children in "
            "it.",
            "A frieze of ducks and rabbits runs around the wall below the picture rail.",
            "A doll's house with its front swung open stands against one wall, a copy of {house} "
            "in little.",
            "Names of {family} children are scratched into the window frame, one above another.",
            "A tall fireguard stands before a grate that has not been lit for years.",
            "Small chairs are set around a small table, as if for a tea party.",
            "A row of faded picture books leans on a shelf at a child's height.",
            "The blackboard on its easel still shows a sum in careful chalk.",
        ),
    ),
    "laundry": Room(
        False,
        ("mangle", "copper", "wooden rack", "ironing board"),
        ("soap, starch and steam", "hot irons and wet linen"),
        ("water dripping from the drying racks", "the copper ticking as it cools"),
        (
            "Sheets hang from racks hauled up to the ceiling on pulleys.",
            "A great copper for boiling the whites stands in the corner on its own hearth.",
            "Flat irons of every size are lined up along a shelf by the stove.",
            "The floor is flagged and wet, with a drain in the middle.",
            "Baskets of folded linen stand waiting to go upstairs.",
            "Every sheet and towel is marked with the {family} initial in red thread.",
            "A black armband lies pressed and ready on the ironing board, for the household to "
            "wear for {victim}.",
            "A cake of yellow soap has melted into a puddle on the draining board.",
            "Steam has run down the whitewashed walls in long streaks.",
        ),
    ),
    "music room": Room(
        False,
        ("piano stool", "window seat", "music stand", "cabinet of scores"),
        ("rosin and dried roses", "old varnish and lavender"),
        ("a piano string humming on its own", "a clock ticking under a glass dome"),
        (
            "A grand piano stands in the bay of the window, its lid closed.",
            "Sheet music has slipped from the stand and lies fanned across the floor.",
            "A harp in a canvas cover leans in the corner like a sleeping figure.",
            "The walls are hung with silk, faded to the colour of weak tea.",
            "A cello rests in its open case, the bow laid across it.",
            "A song with {victim}'s name written on the cover lies on the piano.",
            "Programmes from {family} musical evenings are framed along one wall.",
            "Portraits of composers in oval frames look down with disapproval.",
            "A metronome on the piano stands stopped at the top of its swing.",
        ),
    ),
    "observatory": Room(
        False,
        ("observing chair", "chart table", "instrument cabinet", "swivel stool"),
        ("brass polish and dust", "cold air and lamp oil"),
        ("the creak of the dome in the wind", "a loose shutter knocking"),
        (
            "A great brass telescope points at the slit in the dome, wrapped against the dust.",
            "Star charts are pinned to every wall, inked with notes in a tiny hand.",
            "An iron stair spirals up into the dome from the floor below.",
            "The dome has been winched half round and left that way.",
            "A logbook of observations lies open, the last page dated weeks ago.",
            "A celestial globe stands on a stand of carved mahogany.",
            "A brass plate on the telescope says it was given to {victim} by the county "
            "astronomical society.",
            "From the dome you can see the whole of {house} laid out below like a map.",
            "The {place} is cold, and your breath shows faintly in the air.",
        ),
    ),
}
"""Every room of the word pools (``formalize.world.vocabulary.PLACES``), by name."""

ROOM_OPENINGS: dict[str, tuple[str, ...]] = {
    "indoor": (
        "You let yourself into the {place} and close the door behind you.",
        "The door of the {place} sticks a little, then gives.",
        "You stand for a moment on the threshold of the {place}, taking it in.",
        "The {place} is quiet when you step inside.",
        "Nobody has been into the {place} since the police left it.",
        "You go into the {place} alone, which is how you like to look at a room.",
        "The {place} has the stale air of a room nobody at {house} has aired today.",
        "A servant of {house} shows you into the {place} and leaves you there.",
        "You find the {place} at the end of a passage where {house} is at its quietest.",
        "The {place} is one of the rooms the {family} family seldom use, by the look of it.",
    ),
    "outdoor": (
        "You walk out to the {place} by the path the servants of {house} use.",
        "The {place} is empty when you reach it.",
        "You cross the wet grass to the {place}.",
        "You take your time over the {place}, which nobody has thought to guard.",
        "A gate on a spring lets you into the {place} and bangs shut behind you.",
        "The {place} lies a little apart from {house}, and you go there alone.",
        "You leave {house} by a side door and make your way to the {place}.",
    ),
}
"""The first sentence of a room's card, by whether the room is indoors."""

ROOM_LINES: dict[str, tuple[str, ...]] = {
    "indoor": (
        "The {place} smells of {smell}.",
        "Somewhere in the {place} you can hear {sound}.",
        "The only sound in the {place} is {sound}.",
        "You notice the {furniture} first, then the rest of the {place}.",
        "The {furniture} stands where it has always stood, by the marks on the floor.",
        "A film of dust lies on everything in the {place} that the maids of {house} could not "
        "reach.",
        "The windows of the {place} have not been opened in days.",
        "Someone has half drawn the curtains of the {place} and then given up.",
        "Everything in the {place} is just a little shabbier than it first looks.",
        "The {place} is colder than the rest of {house}.",
        "The floor of the {place} is worn into a path from the door to the {furniture}.",
        "You stand still and listen, but the {place} gives nothing away.",
        "Whoever last tidied the {place} did it in a hurry.",
        "The {place} looks as though the {family} family have not given it a thought in years.",
        "A smell of {smell} hangs in the air of the {place}.",
        "You run a finger along the edge of the {furniture}, and it comes away clean.",
        "The {furniture} is the one thing in the {place} that looks as if it is often used.",
        "Nothing in the {place} looks out of order at first glance.",
        "You look under and behind everything in the {place}, as the police plainly did not.",
        "The {place} is the kind of room that looks better by lamplight.",
        "A spider has strung its web between the {furniture} and the wall.",
        "You take out your lens and go over the {furniture} inch by inch.",
        "It strikes you that the {place} is the quietest corner of {house}.",
        "A draught from somewhere stirs the dust in the {place}.",
        "You sketch the {place} in your notebook, the {furniture} and all.",
        "Your own footsteps sound loud in the {place}.",
        "Like the rest of {house}, the {place} has seen better days.",
    ),
    "outdoor": (
        "The air at the {place} smells of {smell}.",
        "At the {place} all you can hear is {sound}.",
        "You notice the {furniture} first, then the rest of the {place}.",
        "The path to the {place} is uneven, and you watch your step.",
        "A robin follows you round the {place} at a distance, hoping you will dig.",
        "From the {place}, {house} looks smaller than it is.",
        "The {place} looks well kept, though nobody is about.",
        "Nothing at the {place} looks out of order at first glance.",
        "You walk slowly round the {place}, looking at everything twice.",
        "The {furniture} stands a little apart, as if waiting to be noticed.",
        "Somewhere near the {place} you can hear {sound}.",
        "It would be easy to spend an hour at the {place} and notice nothing.",
        "A smell of {smell} hangs over the {place}.",
        "Birds have been at everything left uncovered at the {place}.",
        "You go over the {furniture} with your lens, inch by inch.",
        "The {place} is quieter than you expected, so close to {house}.",
        "The {family} family have plainly spent money on the {place}, and then forgotten it.",
        "You sketch the {place} in your notebook, the {furniture} and all.",
    ),
}
"""Sentences of narration any room may have, by whether it is indoors (each states nothing)."""

ROOM_CLOSINGS: dict[str, tuple[str, ...]] = {
    "indoor": (
        "You leave the {place} as you found it.",
        "On your way out you look back once more, but the {place} has nothing else to say.",
        "You close the door of the {place} quietly behind you.",
        "There is nothing more in the {place} for the {family} case, and you go.",
        "You put everything back where it was and leave the {place}.",
        "You leave the {place} and go back through the cold passages of {house}.",
        "With a last look round, you leave the {place} to its silence.",
    ),
    "outdoor": (
        "You leave the {place} and walk back towards {house}.",
        "There is nothing more to see at the {place}, and you turn back.",
        "You take a last look round the {place} and go.",
        "The {place} keeps its other secrets, if it has any, and you leave it.",
        "You walk back from the {place} with the windows of {house} watching you come.",
    ),
}
"""The last sentence of a room's card."""

WEATHER: dict[str, dict[str, tuple[str, ...]]] = {
    "rain": {
        "indoor": (
            "Rain streams down the windows of the {place} and blurs the grounds beyond.",
            "The rain drums steadily on the glass of the {place}.",
            "Somewhere a gutter overflows, and water patters on the sill of the {place}.",
        ),
        "outdoor": (
            "Rain drips from every edge of the {place} and gathers in puddles on the path.",
            "A fine rain drifts across the {place} and beads on your coat.",
            "Everything at the {place} is dark with wet.",
        ),
        "arrival": (
            "It has rained all night, and the drive up to {house} is a river of mud.",
            "Rain is still falling when your cab turns in at the gates of {house}.",
        ),
    },
    "fog": {
        "indoor": (
            "Outside the windows of the {place} the fog presses white against the glass.",
            "The fog outside makes the {place} as dim as evening.",
            "The light in the {place} is grey with the fog outside.",
        ),
        "outdoor": (
            "Fog hangs low over the {place}, and {house} is only a shape behind it.",
            "Drops of fog gather on every leaf and twig at the {place}.",
            "The fog muffles every sound at the {place}.",
        ),
        "arrival": (
            "A thick fog lies over the country, and {house} looms out of it all at once.",
            "The fog is so thick that the cab driver has to walk his horse up the drive to "
            "{house}.",
        ),
    },
    "frost": {
        "indoor": (
            "Frost ferns cover the lower panes of the windows of the {place}.",
            "The cold outside has crept into the {place} through every crack.",
            "Pale winter sun comes low through the windows of the {place}.",
        ),
        "outdoor": (
            "Frost whitens every blade of grass at the {place}.",
            "Your breath smokes in the cold air of the {place}.",
            "The ground at the {place} is iron hard with frost.",
        ),
        "arrival": (
            "A hard frost has whitened the park, and {house} stands pale and silent in it.",
            "The morning is bitterly cold, and the windows of {house} are furred with frost.",
        ),
    },
    "wind": {
        "indoor": (
            "The wind moans round the walls of the {place}.",
            "A gust shakes a window of the {place} in its frame.",
            "Leaves whirl past the windows of the {place} on the wind.",
        ),
        "outdoor": (
            "The wind tugs at your coat and hat all the while you look round the {place}.",
            "Leaves blow across the {place} in little rushing heaps.",
            "The trees round the {place} toss and roar in the wind.",
        ),
        "arrival": (
            "A gale has blown all night, and branches lie across the drive of {house}.",
            "The wind buffets your cab all the way up the long drive to {house}.",
        ),
    },
    "sun": {
        "indoor": (
            "Sunlight falls across the {place} in a long bright bar.",
            "Dust turns slowly in the sunlight in the {place}.",
            "The sun has warmed the {place}, and the air in it is close.",
        ),
        "outdoor": (
            "The sun is already warm on the {place}.",
            "Bees drone in the sunshine at the {place}.",
            "The shadows at the {place} are short and sharp.",
        ),
        "arrival": (
            "It is a bright, still morning, and {house} looks too peaceful for what happened "
            "there.",
            "The sun is shining when you arrive at {house}, which seems almost an insult.",
        ),
    },
}
"""Per weather of a case, narration for indoor and outdoor rooms and the arrival."""

BODY_LINES: tuple[str, ...] = (
    "The body of {victim} still lies where it was found, covered now with a sheet.",
    "You lift the sheet from {victim}'s face and look for a long moment.",
    "{victim} lies on {vpos} side, one arm flung out as if reaching for something.",
    "The police have chalked a line round {victim}'s body and left everything else as it was.",
    "Nobody has closed {victim}'s eyes.",
    "A chair lies on its side near {victim}, knocked over and never set straight.",
    "Someone has opened a window of the {place}, and a draught stirs beside the body.",
    "The rest of the {place} looks untouched, which makes {victim}'s body harder to look at.",
    "A constable stands at the door of the {place} and looks anywhere but at the body.",
    "You kneel beside {victim} for a long while before you touch anything.",
)
"""Narration at the body, saying nothing of how or when the victim died."""

DOCUMENT_FRAMES: tuple[str, ...] = (
    "Folded small and pushed under the {furniture} is a note in a cramped hand, which says that "
    "{clause}.",
    "A page torn from a pocket diary lies on the {furniture}, and in pencil it records that "
    "{clause}.",
    "Behind the {furniture} you find a letter that has slipped down there, which makes it plain "
    "that {clause}.",
    "Among the papers on the {furniture} is a household memorandum stating that {clause}.",
    "A telegram form, filled in but never sent, lies beside the {furniture}, and it says that "
    "{clause}.",
    "On the {furniture} lies an open notebook whose last entry records that {clause}.",
    "A blotter on the {furniture} still shows, in mirror writing you can just make out, that "
    "{clause}.",
    "Tucked behind the {furniture} is an envelope with no stamp, holding a single sheet which says "
    "that {clause}.",
    "The servants' daybook has been left on the {furniture}, open at yesterday's page, which notes "
    "that {clause}.",
    "A visiting card lies face down on the {furniture}, and on its back someone has written that "
    "{clause}.",
    "Under the {furniture} lies a scrap of newspaper with a pencilled note in its margin saying "
    "that {clause}.",
    "A sheet of writing paper slipped between the pages of a book on the {furniture} states that "
    "{clause}.",
    "A postcard propped against the {furniture} carries a message in a hurried hand: {clause}.",
    "A ledger lies on the {furniture}, and a fresh entry in it records that {clause}.",
    "Caught under the {furniture} is a torn slip of paper which reads that {clause}.",
    "A pocketbook has fallen behind the {furniture}, and inside its cover a pencilled line records "
    "that {clause}.",
    "An old envelope on the {furniture} has been used for jottings, and one of them says that "
    "{clause}.",
    "A letter lies open on the {furniture}, and its second page makes it plain that {clause}.",
    "Inside a cigarette case left on the {furniture} is a folded slip stating that {clause}.",
    "A page from a household account book lies on the {furniture}, with a note in the margin "
    "saying that {clause}.",
    "Pinned to the {furniture} is a scrap of card on which someone has written that {clause}.",
    "Someone has scribbled a line on the back of an old receipt by the {furniture}: {clause}.",
    "A child's exercise book lies on the {furniture}, and on its last page a grown-up hand has "
    "written that {clause}.",
    "In the pocket of a coat left beside the {furniture} is a note which says that {clause}.",
)
"""Fact sentences of a room: a written thing found on, beside, under or behind the furniture
(each is used once in a case, so each clue is found in a thing of its own)."""

BODY_FRAMES: tuple[str, ...] = (
    "One look at the body is enough to tell you that {clause}.",
    "Bending over the body, you see plainly that {clause}.",
    "The body itself tells you this much: {clause}.",
    "The state of the body leaves no doubt that {clause}.",
    "Whatever else is uncertain, the body makes one thing plain: {clause}.",
    "A closer look at the body settles one question: {clause}.",
    "You examine the body with care, and it shows that {clause}.",
    "There is no mistaking what the body shows: {clause}.",
)
"""Fact sentences of the room of the body, for what the body shows (how and when the victim
died, and what did not kill it)."""
