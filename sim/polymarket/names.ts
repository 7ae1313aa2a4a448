// Word lists and event templates for the simulated world. Titles follow the phrasing Polymarket uses
// ("Who will win…?", "Bitcoin price on March 11?", "Fed decision in June?", "X vs. Y").

export interface CategoryDef {
  slug: string;
  label: string;
  /** Gamma tag id (numeric string); the well-known ones match real Polymarket ids. */
  id: string;
  /** Relative share of events. */
  weight: number;
  /** Secondary tag slugs the category's events draw from. */
  subTags: string[];
  image: string;
}

export const CATEGORIES: CategoryDef[] = [
  { slug: "politics", label: "Politics", id: "2", weight: 18, subTags: ["elections", "us-presidential-election", "primaries", "congress", "trump"], image: "politics" },
  { slug: "crypto", label: "Crypto", id: "21", weight: 16, subTags: ["bitcoin", "ethereum", "solana", "crypto-prices", "recurring"], image: "crypto" },
  { slug: "sports", label: "Sports", id: "1", weight: 16, subTags: ["nba", "nfl", "soccer", "tennis", "f1", "nhl", "mlb"], image: "sports" },
  { slug: "economy", label: "Economy", id: "100328", weight: 9, subTags: ["fed-rates", "inflation", "jobs", "recession"], image: "economy" },
  { slug: "tech", label: "Tech", id: "1401", weight: 8, subTags: ["ai", "openai", "big-tech", "apple"], image: "tech" },
  { slug: "pop-culture", label: "Culture", id: "596", weight: 8, subTags: ["movies", "music", "awards", "celebrities"], image: "culture" },
  { slug: "geopolitics", label: "Geopolitics", id: "100265", weight: 9, subTags: ["ukraine", "middle-east", "china", "world-elections"], image: "geopolitics" },
  { slug: "weather", label: "Weather", id: "84", weight: 5, subTags: ["temperature", "hurricanes", "climate"], image: "weather" },
  { slug: "business", label: "Business", id: "107", weight: 6, subTags: ["stocks", "ipos", "earnings", "tesla"], image: "business" },
  { slug: "science", label: "Science", id: "74", weight: 5, subTags: ["space", "spacex", "nasa"], image: "science" },
];

export const SUB_TAG_LABELS: Record<string, [string, string]> = {
  elections: ["144", "Elections"],
  "us-presidential-election": ["1101", "US Election"],
  primaries: ["264", "Primaries"],
  congress: ["100199", "Congress"],
  trump: ["126", "Trump"],
  bitcoin: ["235", "Bitcoin"],
  ethereum: ["39", "Ethereum"],
  solana: ["818", "Solana"],
  "crypto-prices": ["1312", "Crypto Prices"],
  recurring: ["101757", "Recurring"],
  nba: ["745", "NBA"],
  nfl: ["450", "NFL"],
  soccer: ["100350", "Soccer"],
  tennis: ["864", "Tennis"],
  f1: ["100389", "Formula 1"],
  nhl: ["899", "NHL"],
  mlb: ["100381", "MLB"],
  "fed-rates": ["100196", "Fed Rates"],
  inflation: ["102000", "Inflation"],
  jobs: ["101552", "Jobs Report"],
  recession: ["101320", "Recession"],
  ai: ["439", "AI"],
  openai: ["101218", "OpenAI"],
  "big-tech": ["101999", "Big Tech"],
  apple: ["101140", "Apple"],
  movies: ["53", "Movies"],
  music: ["100342", "Music"],
  awards: ["100291", "Awards"],
  celebrities: ["100318", "Celebrities"],
  ukraine: ["100220", "Ukraine"],
  "middle-east": ["154", "Middle East"],
  china: ["303", "China"],
  "world-elections": ["101206", "World Elections"],
  temperature: ["103040", "Daily Temperature"],
  hurricanes: ["101497", "Hurricanes"],
  climate: ["100375", "Climate"],
  stocks: ["604", "Stocks"],
  ipos: ["101766", "IPOs"],
  earnings: ["1013", "Earnings"],
  tesla: ["101004", "Tesla"],
  space: ["100230", "Space"],
  spacex: ["100276", "SpaceX"],
  nasa: ["101853", "NASA"],
};

export const FIRST_NAMES = [
  "James", "Maria", "Robert", "Linda", "Michael", "Elena", "David", "Sarah", "Daniel", "Laura", "Thomas", "Nina",
  "Marco", "Aisha", "Lucas", "Priya", "Jonah", "Greta", "Victor", "Hannah", "Oliver", "Sofia", "Gavin", "Tara",
  "Rafael", "Ingrid", "Samuel", "Yara", "Felix", "Chloe", "Andre", "Mei", "Hugo", "Leah", "Ethan", "Rosa",
  "Kwame", "Anya", "Mateo", "Irene", "Dmitri", "Camila", "Owen", "Naomi", "Pablo", "Julia", "Caleb", "Zara",
];
export const LAST_NAMES = [
  "Whitfield", "Moreno", "Caldwell", "Brennan", "Okafor", "Lindqvist", "Harrington", "Castillo", "Nakamura", "Duval",
  "Fitzgerald", "Romero", "Ashford", "Kowalski", "Sandoval", "Pemberton", "Vasquez", "Holloway", "Stanton", "Reyes",
  "Abernathy", "Marchetti", "Gallagher", "Iverson", "Delacroix", "Novak", "Thornton", "Osei", "Barrett", "Salazar",
  "Kensington", "Ferreira", "Whitaker", "Lund", "Mercer", "Agarwal", "Sorensen", "Beaumont", "Hale", "Quinlan",
];

export const US_STATES = [
  "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware", "Florida", "Georgia",
  "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland",
  "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada",
  "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio", "Oklahoma",
  "Oregon", "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah",
  "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming",
];

export const COUNTRIES = [
  "France", "Germany", "Japan", "Brazil", "Canada", "Australia", "India", "Mexico", "South Korea", "Italy", "Spain",
  "Poland", "Netherlands", "Argentina", "Chile", "Colombia", "Peru", "Portugal", "Sweden", "Norway", "Denmark",
  "Ireland", "Romania", "Hungary", "Czechia", "Greece", "Turkey", "Israel", "South Africa", "Nigeria", "Kenya",
  "Philippines", "Indonesia", "Thailand", "Taiwan", "New Zealand", "Austria", "Belgium", "Finland", "Ukraine",
];

export const CITIES = [
  "NYC", "Chicago", "Los Angeles", "Miami", "Dallas", "Seattle", "Atlanta", "Denver", "Boston", "Phoenix",
  "London", "Paris", "Tokyo", "Seoul", "Toronto", "Buenos Aires", "Sao Paulo", "Wellington", "Ankara", "Lucknow",
];

export const LEAGUES: { name: string; tag: string; season: string; teams: string[] }[] = [
  {
    name: "NBA", tag: "nba", season: "2027",
    teams: ["Celtics", "Thunder", "Nuggets", "Knicks", "Cavaliers", "Lakers", "Warriors", "Timberwolves", "Bucks", "76ers",
      "Mavericks", "Suns", "Heat", "Pacers", "Magic", "Rockets", "Grizzlies", "Clippers", "Kings", "Spurs"],
  },
  {
    name: "NFL", tag: "nfl", season: "2027",
    teams: ["Chiefs", "Eagles", "Ravens", "Bills", "Lions", "49ers", "Packers", "Bengals", "Cowboys", "Texans",
      "Steelers", "Rams", "Commanders", "Vikings", "Buccaneers", "Chargers", "Broncos", "Seahawks", "Jets", "Dolphins"],
  },
  {
    name: "Premier League", tag: "soccer", season: "2026-27",
    teams: ["Arsenal", "Liverpool", "Manchester City", "Chelsea", "Newcastle", "Tottenham", "Aston Villa", "Manchester United",
      "Brighton", "Nottingham Forest", "Bournemouth", "Fulham", "Brentford", "Crystal Palace", "West Ham"],
  },
  {
    name: "Champions League", tag: "soccer", season: "2026-27",
    teams: ["Real Madrid", "Barcelona", "Bayern Munich", "PSG", "Inter", "Arsenal", "Liverpool", "Manchester City",
      "Atletico Madrid", "Bayer Leverkusen", "Borussia Dortmund", "Juventus", "Napoli", "Benfica", "Porto"],
  },
  {
    name: "NHL", tag: "nhl", season: "2027",
    teams: ["Panthers", "Oilers", "Stars", "Hurricanes", "Avalanche", "Rangers", "Jets", "Golden Knights", "Maple Leafs",
      "Lightning", "Devils", "Kings", "Capitals", "Bruins", "Wild"],
  },
  {
    name: "MLB", tag: "mlb", season: "2027",
    teams: ["Dodgers", "Yankees", "Phillies", "Braves", "Orioles", "Astros", "Mets", "Padres", "Guardians", "Brewers",
      "Mariners", "Red Sox", "Cubs", "Tigers", "Royals"],
  },
];

export const F1_DRIVERS = ["Max Verstappen", "Lando Norris", "Charles Leclerc", "Oscar Piastri", "Lewis Hamilton", "George Russell",
  "Carlos Sainz", "Fernando Alonso", "Kimi Antonelli", "Oliver Bearman", "Alex Albon", "Pierre Gasly"];
export const TENNIS_PLAYERS = ["Jannik Sinner", "Carlos Alcaraz", "Novak Djokovic", "Alexander Zverev", "Taylor Fritz",
  "Daniil Medvedev", "Jack Draper", "Holger Rune", "Casper Ruud", "Ben Shelton", "Lorenzo Musetti", "Alex de Minaur"];
export const TENNIS_EVENTS = ["Wimbledon", "US Open", "Australian Open", "French Open", "Madrid Open", "Indian Wells", "Miami Open"];

export const AI_LABS = ["OpenAI", "Google", "Anthropic", "xAI", "Meta", "DeepSeek", "Mistral", "Alibaba", "Moonshot", "Amazon"];
export const BIG_COMPANIES = ["NVIDIA", "Microsoft", "Apple", "Alphabet", "Amazon", "Saudi Aramco", "Meta", "Broadcom", "TSMC",
  "Tesla", "Berkshire Hathaway", "Eli Lilly"];
export const PRODUCTS: [string, string][] = [
  ["OpenAI", "GPT-6"], ["Apple", "a foldable iPhone"], ["Google", "Gemini 4"], ["Tesla", "unsupervised FSD"],
  ["Anthropic", "Claude 6"], ["xAI", "Grok 6"], ["Meta", "Llama 5"], ["Apple", "Siri with on-device LLM"],
  ["Nintendo", "a new Zelda game"], ["Valve", "Half-Life 3"], ["Rockstar", "GTA VI"], ["Microsoft", "a new Xbox console"],
];
export const ARTISTS = ["Taylor Swift", "Bad Bunny", "The Weeknd", "Sabrina Carpenter", "Kendrick Lamar", "Billie Eilish",
  "Drake", "Ariana Grande", "Chappell Roan", "SZA", "Morgan Wallen", "Dua Lipa", "Olivia Rodrigo", "Travis Scott"];
export const MOVIES = ["The Long Meridian", "Saltwater Kings", "A Quiet Orbit", "Paper Lanterns", "The Glass Harbor",
  "Northbound", "Hollow Crown Road", "Midnight Cartographer", "The Last Aviator", "Ember & Ash", "Small Hours",
  "The Lighthouse Keeper's Son"];
export const COINS: { name: string; ticker: string; price: number; tag: string }[] = [
  { name: "Bitcoin", ticker: "BTC", price: 96000, tag: "bitcoin" },
  { name: "Ethereum", ticker: "ETH", price: 3400, tag: "ethereum" },
  { name: "Solana", ticker: "SOL", price: 180, tag: "solana" },
  { name: "XRP", ticker: "XRP", price: 2.4, tag: "crypto-prices" },
  { name: "Dogecoin", ticker: "DOGE", price: 0.32, tag: "crypto-prices" },
];
export const LEADERS: [string, string, string][] = [
  ["Zelenskyy", "President of Ukraine", "ukraine"], ["Putin", "President of Russia", "ukraine"],
  ["Netanyahu", "Prime Minister of Israel", "middle-east"], ["Starmer", "UK Prime Minister", "world-elections"],
  ["Macron", "President of France", "world-elections"], ["Xi Jinping", "President of China", "china"],
  ["Erdogan", "President of Turkey", "world-elections"], ["Maduro", "President of Venezuela", "world-elections"],
  ["Khamenei", "Supreme Leader of Iran", "middle-east"], ["Merz", "German Chancellor", "world-elections"],
];
export const CONFLICTS: [string, string, string][] = [
  ["Russia", "Ukraine", "ukraine"], ["Israel", "Hamas", "middle-east"], ["Israel", "Hezbollah", "middle-east"],
  ["India", "Pakistan", "world-elections"], ["Armenia", "Azerbaijan", "world-elections"], ["Thailand", "Cambodia", "world-elections"],
];
export const POLICY_ITEMS = ["a government shutdown", "a federal ban on congressional stock trading", "a new tariff on EU goods",
  "the crypto market structure bill", "a national AI safety law", "an extension of the ACA subsidies", "a federal minimum wage increase",
  "a TikTok divestiture deal", "the Greenland purchase proposal", "a balanced budget amendment vote"];
export const COMPANIES_FOR_STOCKS: [string, number][] = [
  ["Tesla", 420], ["NVIDIA", 190], ["Apple", 260], ["Microsoft", 520], ["Amazon", 240], ["Meta", 720], ["Palantir", 180],
  ["Netflix", 1200], ["Coinbase", 320], ["GameStop", 28], ["AMD", 210], ["MicroStrategy", 380],
];
export const IPO_COMPANIES = ["SpaceX", "Stripe", "Databricks", "OpenAI", "Anthropic", "Discord", "Revolut", "Shein", "Canva", "Kraken"];

export const PSEUDONYM_ADJECTIVES = [
  "Mixed", "Official", "Woeful", "Weak", "Aware", "Ugly", "Strange", "Limp", "Delicious", "Sad", "Quick", "Far-Off",
  "Flimsy", "Pertinent", "Agitated", "Junior", "Delirious", "Oddball", "Bronze", "Enchanting", "Gentle", "Brave",
  "Crimson", "Silent", "Lucky", "Nimble", "Rusty", "Sunny", "Hollow", "Vivid", "Frosty", "Jolly", "Mellow", "Prickly",
  "Shy", "Tidy", "Zesty", "Bold", "Calm", "Dusty", "Eager", "Fuzzy", "Grand", "Humble", "Icy", "Keen", "Lively",
];
export const PSEUDONYM_NOUNS = [
  "Pomelo", "Gasp", "Analyst", "Finer", "Mesenchyme", "Counselor", "Moment", "Oar", "Tailbud", "Spelling", "Sushi",
  "Recording", "Nightgown", "Processing", "Hovercraft", "Octavo", "Prejudice", "Minimalism", "Strategy", "Populist",
  "Falcon", "Harbor", "Lantern", "Meadow", "Pebble", "Quartz", "Saddle", "Thimble", "Walrus", "Yodel", "Anchor",
  "Biscuit", "Canyon", "Dynamo", "Ember", "Fjord", "Glacier", "Heron", "Igloo", "Jigsaw", "Kettle", "Lagoon",
];
export const HANDLE_WORDS = ["whale", "degen", "alpha", "beta", "moon", "tortoise", "maker", "trader", "oracle", "sniper",
  "yolo", "punter", "quant", "edge", "fade", "longshot", "hedge", "bayes", "kelly", "sharp", "fish", "shark"];
export const BIOS = ["happy betting", "Is it too late now to say gnaw-ry", "not financial advice", "markets are efficient until they aren't",
  "former quant", "just here for the vibes", "buy low sell high", "calibrated since 2020"];
export const WHALE_NAMES = ["Fredi9999", "Theo4", "PrincessCaro", "Michie", "zxgngl", "Domer", "GCottrell93", "walletmaxi",
  "kch123", "RepTrump", "CigarettesAfterSex", "HyperLiquid0xb", "LucasMeow", "Car", "50pence", "abeautifulmind",
  "SemySoldier", "1j59", "ImJustKen", "Len9311238", "bama124", "scottilicious", "aenews2", "tazcot", "Anon-Whale-7",
  "coinflipper", "midwestmacro", "no-limit-pm", "gopfan2", "JustKen", "jstk", "Lognormal", "fhantom", "debased"];

export const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
  "November", "December"];
