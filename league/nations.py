"""The 20 Rugby World Cup 2023 nations, as data (used by a data migration and presets).

``ranking`` is the nations' order in the World Rugby men's rankings at the start
of RWC 2023 (4 September 2023), restricted to the 20 qualified nations; it is
used for seeding bands and as the last tie-breaker.
"""

# code, name, primary colour, secondary colour, RWC 2023 pool, ranking
RWC2023_NATIONS = [
    ("FRA", "France", "#002395", "#FFFFFF", "A", 3),
    ("NZL", "New Zealand", "#000000", "#FFFFFF", "A", 4),
    ("ITA", "Italy", "#1F5FA8", "#FFFFFF", "A", 13),
    ("URU", "Uruguay", "#5CBFEB", "#000000", "A", 17),
    ("NAM", "Namibia", "#003580", "#D21034", "A", 19),
    ("IRE", "Ireland", "#169B62", "#FFFFFF", "B", 1),
    ("RSA", "South Africa", "#007749", "#FFB81C", "B", 2),
    ("SCO", "Scotland", "#0F204B", "#FFFFFF", "B", 5),
    ("TGA", "Tonga", "#C10000", "#FFFFFF", "B", 15),
    ("ROU", "Romania", "#FCD116", "#002B7F", "B", 18),
    ("WAL", "Wales", "#C8102E", "#FFFFFF", "C", 10),
    ("AUS", "Australia", "#FFCD00", "#00843D", "C", 9),
    ("FIJ", "Fiji", "#FFFFFF", "#000000", "C", 7),
    ("GEO", "Georgia", "#8B0000", "#FFFFFF", "C", 11),
    ("POR", "Portugal", "#C8102E", "#006600", "C", 16),
    ("ENG", "England", "#FFFFFF", "#C8102E", "D", 8),
    ("JPN", "Japan", "#BC002D", "#FFFFFF", "D", 14),
    ("ARG", "Argentina", "#75AADB", "#FFFFFF", "D", 6),
    ("SAM", "Samoa", "#002B7F", "#FFFFFF", "D", 12),
    ("CHI", "Chile", "#D52B1E", "#0033A0", "D", 20),
]

RWC2023_CODES = [row[0] for row in RWC2023_NATIONS]

# The flag of each nation: SVG files of the flag-icons npm package (MIT licence, version in
# static/flags/README.md), shipped under static/flags/ as <file>.svg. Ireland plays as the whole island; the
# package has no flag of the Irish Rugby Football Union, so the flag of Ireland stands in.
NATION_FLAGS = {
    "FRA": "fr", "NZL": "nz", "ITA": "it", "URU": "uy", "NAM": "na", "IRE": "ie", "RSA": "za", "SCO": "gb-sct",
    "TGA": "to", "ROU": "ro", "WAL": "gb-wls", "AUS": "au", "FIJ": "fj", "GEO": "ge", "POR": "pt",
    "ENG": "gb-eng", "JPN": "jp", "ARG": "ar", "SAM": "ws", "CHI": "cl",
}
