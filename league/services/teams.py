"""Writes of teams, pools and entries: own teams, entering teams, seeds, pools, players."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, ProtectedError, RestrictedError
from PIL import Image, ImageOps

from league.cache import ALL, data_changed, sections_changed, tournament_changed
from league.errors import DomainError, Forbidden
from league.levels import DEFAULT_LEVEL, LEVELS, site_level
from league.models import Entry, Pool, Team, Tournament
from league.text import clean_text

# -- Teams --------------------------------------------------------------------------------------------------


def teams_resolve(names: Sequence[str]) -> list[Team]:
    """The teams named by code or name (case-insensitive), in order; all unknown names in one error."""
    wanted = [n.strip() for n in names if n and n.strip()]
    by_key: dict[str, Team] = {}
    for team in Team.objects.all():
        by_key.setdefault(team.code.upper(), team)
        by_key.setdefault(team.name.upper(), team)
    missing = [n for n in wanted if n.upper() not in by_key]
    if missing:
        raise DomainError(f"Unknown team(s): {', '.join(missing)}. Use a team's short code (e.g. FRA) or "
                          "its full name.")
    return [by_key[n.upper()] for n in wanted]


@transaction.atomic
def team_save(*, team: Team, user: Any = None) -> Team:
    """Create or change a team (its fields set by the caller); a new team's creator is ``user``."""
    if team.pk is None and team.created_by_id is None and getattr(user, "is_authenticated", False):
        team.created_by = user
    team.name = clean_text(team.name)
    team.full_clean()
    team.save()
    data_changed()  # the team lists
    return team


def team_delete(*, team: Team) -> None:
    """Delete a team that has never been entered in a tournament."""
    try:
        with transaction.atomic():
            team.delete()
    except (ProtectedError, RestrictedError):
        raise DomainError("This team is entered in a tournament: it cannot be deleted.")
    data_changed()


def _unique_code(name: str, taken: set[str]) -> str:
    """A short code for a new team: letters of its name, then digits, avoiding codes in use."""
    letters = "".join(c for c in name.upper() if c.isascii() and c.isalnum()) or "TEAM"
    words = [w for w in name.upper().split() if w]
    candidates = []
    if len(words) >= 2:
        candidates.append("".join(w[0] for w in words if w[0].isascii() and w[0].isalnum())[:5])
    candidates.append(letters[:3])
    candidates.append(letters[:5])
    for candidate in candidates:
        if len(candidate) >= 2 and candidate not in taken:
            return candidate
    base = letters[:3].ljust(2, "X")
    for n in range(1, 100):
        candidate = f"{base}{n}"[:5]
        if candidate not in taken:
            return candidate
    raise DomainError(f"Could not find a free short code for “{name}”: give one.")


@transaction.atomic
def teams_enter_own(*, tournament: Tournament, rows: Sequence[dict[str, Any]], user: Any = None) -> list[Entry]:
    """Create (or reuse the organiser's own) teams from rows ``{name, code?, primary_colour?, secondary_colour?,
    line?}`` and enter them in the order given; all or nothing."""
    wanted = [row["code"] for row in rows if row.get("code")]
    existing = {t.code: t for t in Team.objects.filter(code__in=wanted)}
    taken = set(Team.objects.values_list("code", flat=True))
    user_id = getattr(user, "pk", None)
    teams = []
    for row in rows:
        code = row.get("code") or ""
        if code and code in existing:
            team = existing[code]
            if team.is_nation or team.created_by_id == user_id or team.name == row["name"]:
                teams.append(team)
                continue
            raise DomainError(f"Line {row.get('line', '?')}: the code {code} is used by another team ({team.name}).")
        name = clean_text(row["name"])
        code = code or _unique_code(name, taken)
        team = Team(name=name[:80], code=code, created_by=user if user_id else None)
        if row.get("primary_colour"):
            team.primary_colour = row["primary_colour"]
        if row.get("secondary_colour"):
            team.secondary_colour = row["secondary_colour"]
        try:
            team.full_clean()
        except ValidationError as exc:
            raise DomainError(f"Line {row.get('line', '?')} ({row['name']}): {' '.join(exc.messages)}")
        team.save()
        taken.add(code)
        teams.append(team)
    return entries_add(tournament=tournament, teams=teams)


def nations_enter(*, tournament: Tournament) -> list[Entry]:
    """Enter the RWC 2023 nations that are not in the tournament yet (by World Rugby ranking)."""
    entered = set(Entry.objects.filter(tournament=tournament).values_list("team_id", flat=True))
    nations = [t for t in Team.objects.filter(is_nation=True).order_by("world_ranking") if t.pk not in entered]
    return entries_add(tournament=tournament, teams=nations) if nations else []


# -- Pools --------------------------------------------------------------------------------------------------


def pool_create(*, tournament: Tournament, name: str, order: int | None = None) -> Pool:
    """Add a pool to a tournament (or return the one of that name)."""
    name = clean_text(name)
    if not name:
        raise DomainError({"name": ["A pool needs a name."]})
    if order is None:
        order = (Pool.objects.filter(tournament=tournament).aggregate(m=Max("order"))["m"] or 0) + 1
    pool, _created = Pool.objects.get_or_create(tournament=tournament, name=name, defaults={"order": order})
    return pool


@transaction.atomic
def pool_save(*, pool: Pool) -> Pool:
    """Create or change a pool whose fields the caller has set (the admin)."""
    pool.name = clean_text(pool.name)
    pool.full_clean()
    pool.save()
    tournament_changed(pool.tournament)
    return pool


@transaction.atomic
def pool_delete(*, pool: Pool) -> None:
    """Delete a pool (its fixtures go with it; its entries are left without a pool)."""
    tournament = pool.tournament
    pool.delete()
    tournament_changed(tournament)


# -- Entries ------------------------------------------------------------------------------------------------


def entries_add(*, tournament: Tournament, teams: Sequence[Team | str], pool: Pool | str | None = None,
                **fields: Any) -> list[Entry]:
    """Enter teams (Team objects, codes or names) in a tournament, optionally in a pool (made if needed).

    Seeds continue from the tournament's highest seed, in the order given (``seed`` in ``fields`` sets the
    seed of a single team). A team already entered, or named twice, is refused. ``fields``: further entry
    fields (player_name, computer_level...).
    """
    resolved = [t for t in teams if isinstance(t, Team)]
    names = [t for t in teams if not isinstance(t, Team)]
    if names:
        lookup = dict(zip(names, teams_resolve(names), strict=True))
        resolved = [t if isinstance(t, Team) else lookup[t] for t in teams]
    codes = [t.code for t in resolved]
    twice = sorted({c for c in codes if codes.count(c) > 1})
    if twice:
        raise DomainError(f"Team(s) named more than once: {', '.join(twice)}.")
    limit = int(settings.MAX_TEAMS_PER_TOURNAMENT)
    if Entry.objects.filter(tournament=tournament).count() + len(resolved) > limit:
        raise DomainError({"team": [f"A tournament can have at most {limit} teams."]})
    already = sorted(Entry.objects.filter(tournament=tournament, team__in=resolved)
                     .values_list("team__code", flat=True))
    if already:
        raise DomainError({"team": [f"Already in {tournament.name}: {', '.join(already)}."]})
    if isinstance(pool, Pool) and pool.tournament_id != tournament.pk:
        raise DomainError({"pool": [f"Pool {pool.name} belongs to another tournament."]})
    seed = fields.pop("seed", None)
    if seed is not None and len(resolved) != 1:
        raise DomainError({"seed": ["A seed can be given for one team only."]})
    if seed is not None and Entry.objects.filter(tournament=tournament, seed=seed).exists():
        raise DomainError({"seed": ["Another team already has this seed."]})
    try:
        with transaction.atomic():
            if isinstance(pool, str):
                pool = pool_create(tournament=tournament, name=pool)
            start = Entry.objects.filter(tournament=tournament).aggregate(m=Max("seed"))["m"] or 0
            entries = Entry.objects.bulk_create([
                Entry(tournament=tournament, team=team, pool=pool, seed=seed if seed is not None else start + i,
                      **fields)
                for i, team in enumerate(resolved, start=1)
            ])
            tournament_changed(tournament)
    except IntegrityError:  # two requests entering the same team at once
        raise DomainError({"team": ["This team or seed is already in the tournament."]})
    return entries


@transaction.atomic
def entry_save(*, entry: Entry) -> Entry:
    """Save an entry whose fields the caller has set (seed, pool, player, computer level: the API, the admin).

    A new entry (the admin's "add") takes the next seed when it has none; a team entered twice or a seed
    taken twice is refused.
    """
    if entry.pk is None:
        if Entry.objects.filter(tournament_id=entry.tournament_id, team_id=entry.team_id).exists():
            raise DomainError({"team": ["This team is already in the tournament."]})
        limit = int(settings.MAX_TEAMS_PER_TOURNAMENT)
        if Entry.objects.filter(tournament_id=entry.tournament_id).count() >= limit:
            raise DomainError({"team": [f"A tournament can have at most {limit} teams."]})
        if entry.seed is None:
            entry.seed = (Entry.objects.filter(tournament_id=entry.tournament_id).aggregate(m=Max("seed"))["m"]
                          or 0) + 1
    if entry.seed is not None and Entry.objects.filter(tournament_id=entry.tournament_id, seed=entry.seed) \
            .exclude(pk=entry.pk).exists():
        raise DomainError({"seed": ["Another team already has this seed."]})
    entry.player_name = clean_text(entry.player_name)
    entry.save()
    tournament_changed(entry.tournament)
    return entry


_KEEP: Any = object()


def entry_update(*, entry: Entry, pool: Pool | str | None = _KEEP, **fields: Any) -> Entry:
    """Change an entry's fields; ``pool`` may be a Pool, a pool name (made if needed) or None."""
    if pool is not _KEEP:
        if isinstance(pool, str):
            pool = pool_create(tournament=entry.tournament, name=pool) if pool.strip() else None
        entry.pool = pool
    for name, value in fields.items():
        setattr(entry, name, value)
    return entry_save(entry=entry)


def entry_set_player(*, entry: Entry, player: Any = None, player_name: str = "",
                     computer_level: str = DEFAULT_LEVEL) -> Entry:
    """Who plays an entry: a person's account, a person's name, or the computer at a level (a former level
    name, ``aware`` or ``random``, is taken as today's)."""
    computer_level = site_level(computer_level)
    if computer_level not in LEVELS:
        raise DomainError({"computer_level": [f"Unknown computer level {computer_level!r}; choose from "
                                              f"{', '.join(LEVELS)}."]})
    return entry_update(entry=entry, player=player, player_name=(player_name or "")[:80],
                        computer_level=computer_level)


def entry_delete(*, entry: Entry) -> None:
    """Remove a team that has no fixture yet (a team with fixtures is withdrawn instead)."""
    tournament = entry.tournament
    try:
        with transaction.atomic():
            entry.delete()
    except (ProtectedError, RestrictedError):
        raise DomainError("This team already has fixtures or results: withdraw it instead of removing it.")
    tournament_changed(tournament)


# -- Logos ----------------------------------------------------------------------------------------------------

# An uploaded logo: a PNG, JPEG, GIF or WebP of at most LOGO_MAX_BYTES and LOGO_MAX_PIXELS, re-encoded as a PNG
# of at most LOGO_SIZE pixels a side (whatever else the file held is dropped) and named by its content's hash.
LOGO_MAX_BYTES = 2 * 1024 * 1024
LOGO_MAX_PIXELS = 25_000_000
LOGO_SIZE = 256
LOGO_FORMATS = ("PNG", "JPEG", "GIF", "WEBP")


def logo_path(name: str) -> Path:
    """Where a logo's file is kept: MEDIA_ROOT/logos/<name>."""
    return Path(settings.MEDIA_ROOT) / "logos" / name


def _may_change_team(team: Team, user: Any) -> None:
    if team.is_nation:
        raise Forbidden("The nations play under their flags: they have no logo to change.")
    if not getattr(user, "is_authenticated", False) or not (user.is_superuser or team.created_by_id == user.pk):
        raise Forbidden("Only the organiser who made this team can change its logo.")


def _teams_pages_changed(team: Team) -> None:
    for tournament_id in Entry.objects.filter(team=team).values_list("tournament_id", flat=True).distinct():
        sections_changed(tournament_id, [ALL])


def team_logo_set(*, team: Team, file: Any, user: Any = None) -> Team:
    """Give a team an uploaded logo: checked (size, a picture of an allowed type, its dimensions), re-encoded as a
    PNG of at most 256 x 256 and stored under MEDIA_ROOT/logos/; every page showing the team is refreshed."""
    _may_change_team(team, user)
    data = file.read(LOGO_MAX_BYTES + 1) if hasattr(file, "read") else bytes(file)
    if len(data) > LOGO_MAX_BYTES:
        raise DomainError({"logo": [f"The logo is too big: at most {LOGO_MAX_BYTES // (1024 * 1024)} MB."]})
    unreadable = DomainError({"logo": ["This file is not a picture the site can use: send a PNG, JPEG, GIF or "
                                       "WebP image."]})
    try:
        with Image.open(io.BytesIO(data)) as picture:
            if picture.format not in LOGO_FORMATS:
                raise unreadable
            if picture.width * picture.height > LOGO_MAX_PIXELS:
                raise DomainError({"logo": ["The picture is too large: at most 25 million pixels."]})
            picture.seek(0)  # the first frame of an animation
            image = ImageOps.exif_transpose(picture).convert("RGBA")
    except (OSError, ValueError, Image.DecompressionBombError, SyntaxError):
        raise unreadable
    image.thumbnail((LOGO_SIZE, LOGO_SIZE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    encoded = out.getvalue()
    name = hashlib.sha256(encoded).hexdigest()[:40] + ".png"
    path = logo_path(name)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_bytes(encoded)
        temporary.replace(path)  # a reader never sees half a file
    team.logo = name
    team.save(update_fields=["logo"])
    _teams_pages_changed(team)
    return team


def team_logo_clear(*, team: Team, user: Any = None) -> Team:
    """Remove a team's logo: its crest (colours and initials) shows again. The file stays (another team, or an
    old cached page, may show it)."""
    _may_change_team(team, user)
    team.logo = ""
    team.save(update_fields=["logo"])
    _teams_pages_changed(team)
    return team
