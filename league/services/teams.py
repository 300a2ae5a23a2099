"""Writes of teams, pools and entries: own teams, entering teams, seeds, pools, players, removing an entry.

A team belongs to its owner (``Team.owner``; the site's when None, as the RWC nations are). Naming a team by
code or name (a pasted list, a CSV, the API, the commands) finds only the nations and the caller's own teams
(``league.selectors.teams_for``), and only the owner changes a team: so one organiser can never pick up, or
rename, what another organiser's pages show.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, ProtectedError, Q, RestrictedError
from django.utils.translation import gettext as _
from PIL import Image, ImageOps

from league import advancement
from league.cache import ALL, data_changed, sections_changed, tournament_changed
from league.errors import Conflict, DomainError, Forbidden
from league.levels import DEFAULT_LEVEL, LEVELS, site_level
from league.models import AuditRecord, Entry, Fixture, Pool, Result, Team, Tournament
from league.selectors import teams_for
from league.services.audit import audit_record
from league.text import clean_text

# -- Teams --------------------------------------------------------------------------------------------------

TEAM_FIELDS = ("name", "code", "primary_colour", "secondary_colour")


def teams_resolve(names: Sequence[str], *, owner: Any = None) -> list[Team]:
    """The teams named by code or name (case-insensitive), in order, among the RWC nations and ``owner``'s own
    teams (the site's teams when ``owner`` is None); all unknown names in one error."""
    wanted = [n.strip() for n in names if n and n.strip()]
    by_key: dict[str, Team] = {}
    # The owner's own teams first: their "Italy" is the one they mean, not the nation.
    for team in sorted(teams_for(owner), key=lambda t: (t.is_nation, t.pk)):
        by_key.setdefault(team.code.upper(), team)
        by_key.setdefault(team.name.upper(), team)
    missing = [n for n in wanted if n.upper() not in by_key]
    if missing:
        raise DomainError(_("Unknown team(s): %(names)s. Name a team by its short code (e.g. FRA) or its full "
                            "name: an RWC nation or one of your own teams.") % {"names": ", ".join(missing)})
    return [by_key[n.upper()] for n in wanted]


def _team_values(team: Team) -> dict[str, Any]:
    return {name: getattr(team, name) for name in TEAM_FIELDS}


def _check_team_code(team: Team) -> None:
    """A team's code must not be a nation's (unless it is that nation), nor another team's in a tournament
    it is entered in (pages and imports name a tournament's teams by code)."""
    if not team.is_nation:
        nation = Team.objects.filter(is_nation=True, code=team.code).exclude(pk=team.pk).first()
        if nation is not None:
            raise DomainError({"code": [_("%(code)s is the code of %(name)s, an RWC nation: choose another.")
                                        % {"code": team.code, "name": nation.name}]})
    if team.pk is not None:
        clash = (Entry.objects.filter(tournament__entries__team=team, team__code=team.code)
                 .exclude(team=team).select_related("tournament").first())
        if clash is not None:
            raise DomainError({"code": [_("%(team)s in %(tournament)s already has the code %(code)s.")
                                        % {"team": clash.team.name, "tournament": clash.tournament.name,
                                           "code": team.code}]})


def _may_change_team(user: Any, team: Team) -> bool:
    if user is None:
        return True  # the command line and the site's own code
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser or (team.owner_id is not None and team.owner_id == user.pk))


@transaction.atomic
def team_save(*, team: Team, user: Any = None, site_team: bool = False) -> Team:
    """Create or change a team (its fields set by the caller: a form, the API, the admin).

    A new team belongs to ``user`` (unless it is a nation or ``site_team``, the admin's choice for a
    superuser); only its owner (or a superuser) changes it, others get ``Forbidden``. Its code is unique
    among its owner's teams, is no nation's, and is no other team's in a tournament it plays in. A change is
    kept in the audit trail and refreshes the pages of every tournament the team is entered in.
    """
    team.code = (team.code or "").strip().upper()
    team.name = clean_text(team.name or "").strip()
    # A colour picker says "#aa2211", a CSV "#AA2211": one spelling, so an unchanged colour is no change.
    team.primary_colour = (team.primary_colour or "").upper()
    team.secondary_colour = (team.secondary_colour or "").upper()
    old = None
    if team.pk is None:
        signed_in = getattr(user, "is_authenticated", False)
        if team.owner_id is None and signed_in and not team.is_nation and not site_team:
            team.owner = user
        if team.created_by_id is None and signed_in:
            team.created_by = user
    else:
        stored = Team.objects.select_for_update().filter(pk=team.pk).first()
        if stored is None:
            raise DomainError(_("This team no longer exists."), code="not_found")
        if not _may_change_team(user, stored):
            raise Forbidden(_("Only the organiser who owns this team may change it; the RWC nations cannot be "
                              "changed."))
        old = _team_values(stored)
    _check_team_code(team)
    team.full_clean()
    try:
        with transaction.atomic():
            team.save()
    except IntegrityError:  # two requests creating the same code at once
        raise DomainError({"code": [_("You already have a team with this code.")]})
    data_changed()  # the team lists
    new = _team_values(team)
    if old is not None and old != new:
        changed = [name for name in TEAM_FIELDS if old[name] != new[name]]
        audit_record(action=AuditRecord.Action.TEAM_CHANGED, team=team, user=user,
                     old={name: old[name] for name in changed}, new={name: new[name] for name in changed})
        for tournament in Tournament.objects.filter(entries__team=team).distinct():
            tournament_changed(tournament)
    return team


def team_update(*, team: Team, user: Any = None, **fields: Any) -> Team:
    """Rename a team, change its code or colours (``team_save``'s rules: the owner only)."""
    unknown = sorted(set(fields) - set(TEAM_FIELDS))
    if unknown:
        raise DomainError(_("Unknown team field(s): %(names)s.") % {"names": ", ".join(unknown)})
    for name, value in fields.items():
        setattr(team, name, value)
    try:
        return team_save(team=team, user=user)
    except ValidationError:
        if team.pk is not None:
            team.refresh_from_db()
        raise


def team_delete(*, team: Team, user: Any = None) -> None:
    """Delete a team that has never been entered in a tournament (its owner, or a superuser)."""
    if not _may_change_team(user, team):
        raise Forbidden(_("Only the organiser who owns this team may delete it."))
    try:
        with transaction.atomic():
            team.delete()
    except (ProtectedError, RestrictedError):
        raise Conflict(_("This team is entered in a tournament: it cannot be deleted."))
    data_changed()


def _unique_code(name: str, taken: set[str]) -> str:
    """A short code for a new team: with its own number ("Team 12" -> "TEA12"), else its initials or the letters
    of its name, then letters and a counter (enough codes for a 1,000-team league of "Club 1" to "Club 1000"),
    avoiding codes in use."""
    letters = "".join(c for c in name.upper() if c.isascii() and c.isalnum()) or "TEAM"
    alpha = "".join(c for c in letters if c.isalpha()) or "T"
    digits = "".join(c for c in letters if c.isdigit())
    words = [w for w in name.upper().split() if w]
    candidates = []
    if 1 <= len(digits) <= 4:  # first: "Club 0102" is C0102 beside its name in a phone's narrow table
        candidates.append(alpha[:5 - len(digits)] + digits)
    if len(words) >= 2:
        candidates.append("".join(w[0] for w in words if w[0].isascii() and w[0].isalnum())[:5])
    candidates.append(letters[:3])
    candidates.append(letters[:5])
    for candidate in candidates:
        if len(candidate) >= 2 and candidate not in taken:
            return candidate
    # Shorter prefixes leave room for longer counters: CLU1-CLU99, then CL100-CL999, then C1000-C9999.
    for width, prefix in ((2, letters[:3].ljust(2, "X")), (3, alpha[:2].ljust(2, "X")), (4, alpha[:1])):
        for n in range(1 if width == 2 else 10 ** (width - 1), 10 ** width):
            candidate = f"{prefix}{n}"[:5]
            if candidate not in taken:
                return candidate
    raise DomainError(_("Could not find a free short code for “%(name)s”: give one.") % {"name": name})


@transaction.atomic
def teams_from_rows(*, rows: Sequence[Mapping[str, Any]], owner: Any = None) -> list[Team]:
    """The teams of rows ``{name, code?, primary_colour?, secondary_colour?, line?}`` (a pasted list, a CSV),
    in order: a nation or one of ``owner``'s teams when the row names one (by code, or by name without a
    code), else a new team of ``owner``'s. All or nothing; a bad row's error names its line."""
    if not getattr(owner, "is_authenticated", False):
        owner = None
    own = Team.objects.filter(owner=owner) if owner is not None else Team.objects.filter(owner__isnull=True,
                                                                                        is_nation=False)
    mine = {t.code: t for t in own}
    nations = {t.code: t for t in Team.objects.filter(is_nation=True)}
    by_name = {t.name.casefold(): t for t in [*nations.values(), *mine.values()]}
    taken = set(mine) | set(nations)
    teams = []
    for row in rows:
        name = clean_text(str(row.get("name") or "")).strip()
        code = str(row.get("code") or "").strip().upper()
        where = _("Line %(line)s (%(name)s)") % {"line": row.get("line", "?"), "name": name}
        if code in mine:
            teams.append(mine[code])
            continue
        if code in nations:
            if name.casefold() not in (nations[code].name.casefold(), code.casefold()):
                raise DomainError(_("%(where)s: %(code)s is the code of %(nation)s, an RWC nation: choose another "
                                    "code.") % {"where": where, "code": code, "nation": nations[code].name})
            teams.append(nations[code])
            continue
        if not code and name.casefold() in by_name:
            teams.append(by_name[name.casefold()])
            continue
        code = code or _unique_code(name, taken)
        team = Team(name=name[:80], code=code, owner=owner, created_by=owner)
        if row.get("primary_colour"):
            team.primary_colour = str(row["primary_colour"]).upper()
        if row.get("secondary_colour"):
            team.secondary_colour = str(row["secondary_colour"]).upper()
        try:
            team.full_clean()
        except ValidationError as exc:
            raise DomainError(_("%(where)s: %(errors)s") % {"where": where, "errors": ' '.join(exc.messages)})
        team.save()
        taken.add(code)
        mine[code] = team
        by_name.setdefault(name.casefold(), team)
        teams.append(team)
    return teams


@transaction.atomic
def teams_enter_own(*, tournament: Tournament, rows: Sequence[dict[str, Any]], user: Any = None) -> list[Entry]:
    """Create (or reuse the caller's own, or the nations) teams from rows ``{name, code?, primary_colour?,
    secondary_colour?, line?}`` and enter them in the order given; all or nothing."""
    return entries_add(tournament=tournament, teams=teams_from_rows(rows=rows, owner=user), user=user)


def nations_enter(*, tournament: Tournament, user: Any = None) -> list[Entry]:
    """Enter the RWC 2023 nations that are not in the tournament yet (by World Rugby ranking)."""
    entered = set(Entry.objects.filter(tournament=tournament).values_list("team_id", flat=True))
    nations = [t for t in Team.objects.filter(is_nation=True).order_by("world_ranking") if t.pk not in entered]
    return entries_add(tournament=tournament, teams=nations, user=user) if nations else []


# -- Pools --------------------------------------------------------------------------------------------------


def pool_create(*, tournament: Tournament, name: str, order: int | None = None) -> Pool:
    """Add a pool to a tournament (or return the one of that name)."""
    name = clean_text(name)
    if not name:
        raise DomainError({"name": [_("A pool needs a name.")]})
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
                user: Any = None, **fields: Any) -> list[Entry]:
    """Enter teams (Team objects, codes or names) in a tournament, optionally in a pool (made if needed).

    Names resolve among the nations and ``user``'s own teams (``teams_resolve``); a Team object must be one
    of those too (or the site's) when ``user`` is given: nobody enters another organiser's team. Seeds
    continue from the tournament's highest seed, in the order given (``seed`` in ``fields`` sets the seed of
    a single team). A team already entered, named twice, or with the code of a team already entered, is
    refused. ``fields``: further entry fields (player_name, computer_level...).
    """
    resolved = [t for t in teams if isinstance(t, Team)]
    names = [t for t in teams if not isinstance(t, Team)]
    if names:
        lookup = dict(zip(names, teams_resolve(names, owner=user), strict=True))
        resolved = [t if isinstance(t, Team) else lookup[t] for t in teams]
    if getattr(user, "is_authenticated", False) and not user.is_superuser:
        foreign = sorted(t.name for t in resolved if t.owner_id is not None and t.owner_id != user.pk)
        if foreign:
            raise Forbidden(_("Not your team(s): %(names)s. Enter an RWC nation or one of your own teams.")
                            % {"names": ", ".join(foreign)})
    codes = [t.code for t in resolved]
    twice = sorted({c for c in codes if codes.count(c) > 1})
    if twice:
        raise DomainError(_("Team(s) named more than once: %(codes)s.") % {"codes": ", ".join(twice)})
    limit = int(settings.MAX_TEAMS_PER_TOURNAMENT)
    if Entry.objects.filter(tournament=tournament).count() + len(resolved) > limit:
        raise DomainError({"team": [_("A tournament can have at most %(limit)s teams.") % {"limit": limit}]})
    already = sorted(Entry.objects.filter(tournament=tournament, team__in=resolved)
                     .values_list("team__code", flat=True))
    if already:
        raise DomainError({"team": [_("Already in %(tournament)s: %(codes)s.")
                                    % {"tournament": tournament.name, "codes": ", ".join(already)}]})
    same_code = sorted(Entry.objects.filter(tournament=tournament, team__code__in=codes)
                       .values_list("team__code", flat=True))
    if same_code:
        raise DomainError({"team": [_("Another team in %(tournament)s already has the code %(codes)s: change "
                                      "one of the codes first.")
                                    % {"tournament": tournament.name, "codes": ", ".join(same_code)}]})
    if isinstance(pool, Pool) and pool.tournament_id != tournament.pk:
        raise DomainError({"pool": [_("Pool %(pool)s belongs to another tournament.") % {"pool": pool.name}]})
    seed = fields.pop("seed", None)
    if seed is not None and len(resolved) != 1:
        raise DomainError({"seed": [_("A seed can be given for one team only.")]})
    if seed is not None and Entry.objects.filter(tournament=tournament, seed=seed).exists():
        raise DomainError({"seed": [_("Another team already has this seed.")]})
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
        raise DomainError({"team": [_("This team or seed is already in the tournament.")]})
    return entries


@transaction.atomic
def entry_save(*, entry: Entry) -> Entry:
    """Save an entry whose fields the caller has set (seed, pool, player, computer level: the API, the admin).

    A new entry (the admin's "add") takes the next seed when it has none; a team entered twice or a seed
    taken twice is refused, and so is a new seed or pool once the fixtures are made (they follow the seeds and
    pools they were made from: ``entries_arrange`` says how to change them).
    """
    if entry.pk is not None:
        stored = Entry.objects.filter(pk=entry.pk).values("seed", "pool_id").first()
        moved = stored is not None and (stored["seed"], stored["pool_id"]) != (entry.seed, entry.pool_id)
        if moved and Fixture.objects.filter(tournament_id=entry.tournament_id).exists():
            raise Conflict(_("The fixtures are made from these seeds and pools: delete the fixtures (none may have "
                             "a result) before changing them."))
    if entry.pk is None:
        if Entry.objects.filter(tournament_id=entry.tournament_id, team_id=entry.team_id).exists():
            raise DomainError({"team": [_("This team is already in the tournament.")]})
        limit = int(settings.MAX_TEAMS_PER_TOURNAMENT)
        if Entry.objects.filter(tournament_id=entry.tournament_id).count() >= limit:
            raise DomainError({"team": [_("A tournament can have at most %(limit)s teams.") % {"limit": limit}]})
        if entry.seed is None:
            entry.seed = (Entry.objects.filter(tournament_id=entry.tournament_id).aggregate(m=Max("seed"))["m"]
                          or 0) + 1
    if entry.seed is not None and Entry.objects.filter(tournament_id=entry.tournament_id, seed=entry.seed) \
            .exclude(pk=entry.pk).exists():
        raise DomainError({"seed": [_("Another team already has this seed.")]})
    entry.player_name = clean_text(entry.player_name)
    entry.save()
    tournament_changed(entry.tournament)
    return entry


_KEEP: Any = object()


@transaction.atomic
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
        raise DomainError({"computer_level": [_("Unknown computer level %(level)s; choose from %(choices)s.")
                                              % {"level": repr(computer_level), "choices": ", ".join(LEVELS)}]})
    return entry_update(entry=entry, player=player, player_name=(player_name or "")[:80],
                        computer_level=computer_level)


def _entry_values(entry: Entry) -> dict[str, Any]:
    return {"team": entry.team.code, "name": entry.team.name, "seed": entry.seed,
            "pool": entry.pool.name if entry.pool_id and entry.pool else None}


@transaction.atomic
def entry_delete(*, entry: Entry, user: Any = None) -> None:
    """Remove a team from a tournament, as if it had never been entered (a team entered by mistake, twice).

    Only while it has no result: a team with results is withdrawn instead (``entry_withdraw``), so that
    its opponents keep them. Its pool and solo fixtures (none played) go with it; a team already placed in a
    knockout bracket or a Swiss round is withdrawn instead too (its opponent would be left with nobody).
    Kept in the audit trail.
    """
    # of=self: the pool is an outer join, which PostgreSQL cannot lock.
    entry = Entry.objects.select_for_update(of=("self",)).select_related("team", "pool", "tournament").get(pk=entry.pk)
    tournament = entry.tournament
    mine = Fixture.objects.filter(Q(home=entry) | Q(away=entry), tournament=tournament)
    if Result.objects.filter(fixture__in=mine).exists() or Result.objects.filter(winner=entry).exists():
        raise Conflict(_("%(team)s already has results: withdraw it instead (its opponents keep their results).")
                       % {"team": entry.team.name})
    if mine.filter(status=Fixture.Status.LIVE).exists():
        raise Conflict(_("%(team)s is playing a match now: wait for its result.") % {"team": entry.team.name})
    if mine.filter(stage__in=[Fixture.Stage.KNOCKOUT, Fixture.Stage.SWISS]).exists():
        raise Conflict(_("%(team)s is already drawn in a knockout or Swiss round: withdraw it instead (its "
                         "opponent goes through).") % {"team": entry.team.name})
    old = _entry_values(entry)
    count = mine.count()
    mine.delete()
    try:
        with transaction.atomic():
            entry.delete()
    except (ProtectedError, RestrictedError):
        raise Conflict(_("%(team)s cannot be removed: withdraw it instead.") % {"team": entry.team.name})
    audit_record(action=AuditRecord.Action.ENTRY_REMOVED, tournament=tournament, team=entry.team, user=user,
                 old={**old, "fixtures_deleted": count})
    advancement.rederive(tournament, user=user)
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


def _may_change_logo(team: Team, user: Any) -> None:
    if team.is_nation:
        raise Forbidden(_("The nations play under their flags: they have no logo to change."))
    if user is None or not _may_change_team(user, team):  # the team's owner (or a superuser) only
        raise Forbidden(_("Only the organiser who made this team can change its logo."))


def _teams_pages_changed(team: Team) -> None:
    for tournament_id in Entry.objects.filter(team=team).values_list("tournament_id", flat=True).distinct():
        sections_changed(tournament_id, [ALL])


def team_logo_set(*, team: Team, file: Any, user: Any = None) -> Team:
    """Give a team an uploaded logo: checked (size, a picture of an allowed type, its dimensions), re-encoded as a
    PNG of at most 256 x 256 and stored under MEDIA_ROOT/logos/; every page showing the team is refreshed."""
    _may_change_logo(team, user)
    data = file.read(LOGO_MAX_BYTES + 1) if hasattr(file, "read") else bytes(file)
    if len(data) > LOGO_MAX_BYTES:
        raise DomainError({"logo": [_("The logo is too big: at most %(size)s MB.")
                                      % {"size": LOGO_MAX_BYTES // (1024 * 1024)}]})
    unreadable = DomainError({"logo": [_("This file is not a picture the site can use: send a PNG, JPEG, GIF or "
                                       "WebP image.")]})
    try:
        with Image.open(io.BytesIO(data)) as picture:
            if picture.format not in LOGO_FORMATS:
                raise unreadable
            if picture.width * picture.height > LOGO_MAX_PIXELS:
                raise DomainError({"logo": [_("The picture is too large: at most 25 million pixels.")]})
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
    _may_change_logo(team, user)
    team.logo = ""
    team.save(update_fields=["logo"])
    _teams_pages_changed(team)
    return team


def entry_removal_fixtures(entry: Entry) -> int:
    """How many fixtures go with an entry if it is removed (for the confirmation page)."""
    return Fixture.objects.filter(Q(home=entry) | Q(away=entry), tournament_id=entry.tournament_id).count()


@transaction.atomic
def entries_arrange(*, tournament: Tournament, seeds: Mapping[int, int | None] | None = None,
                    pools: Mapping[int, str | None] | None = None, user: Any = None) -> int:
    """Re-seed entries and move them between pools (``seeds``/``pools``: entry id to seed, or to pool name or
    None), before the fixtures exist: fixtures already made follow the seeds and pools they were made from.
    Seeds stay unique and positive; a pool name must be one of the tournament's pools. Returns how many
    entries changed; the changes are kept in the audit trail."""
    seeds, pools = dict(seeds or {}), dict(pools or {})
    entries = {e.pk: e for e in Entry.objects.select_for_update(of=("self",)).filter(tournament=tournament)
               .select_related("team", "pool")}
    unknown = sorted(set(seeds) - set(entries)) + sorted(set(pools) - set(entries))
    if unknown:
        raise DomainError(_("These entries are not in %(tournament)s.") % {"tournament": tournament.name})
    fixtures = Fixture.objects.filter(tournament=tournament)
    new_seeds = {pk: seeds.get(pk, e.seed) for pk, e in entries.items()}
    by_name = {p.name: p for p in Pool.objects.filter(tournament=tournament)}
    current = {pk: e.pool.name if e.pool_id and e.pool else None for pk, e in entries.items()}
    new_pools: dict[int, str | None] = {}
    for pk in entries:
        name = (pools[pk] or "").strip() or None if pk in pools else current[pk]
        if name is not None and name not in by_name:
            raise DomainError({"pool": [_("There is no pool %(name)s.") % {"name": name}]})
        new_pools[pk] = name
    seed_changed = [pk for pk, e in entries.items() if new_seeds[pk] != e.seed]
    pool_changed = [pk for pk in entries if new_pools[pk] != current[pk]]
    if not seed_changed and not pool_changed:
        return 0
    if fixtures.exists():
        raise Conflict(_("The fixtures are made from these seeds and pools: delete the fixtures (none may have a "
                         "result) before changing them."))
    values = [s for s in new_seeds.values() if s is not None]
    if any(not isinstance(s, int) or isinstance(s, bool) or not 1 <= s <= 9999 for s in values):
        raise DomainError({"seed": [_("A seed is a whole number from 1 to 9999.")]})
    twice = sorted({s for s in values if values.count(s) > 1})
    if twice:
        raise DomainError({"seed": [_("Two teams cannot have the same seed (%(seeds)s).")
                                    % {"seeds": ", ".join(str(s) for s in twice)}]})
    old = {e.team.code: {"seed": e.seed, "pool": current[pk]}
           for pk, e in entries.items() if pk in seed_changed or pk in pool_changed}
    # Seeds are unique in the database: clear the changed ones first, then set them.
    Entry.objects.filter(pk__in=seed_changed).update(seed=None)
    for pk in sorted(set(seed_changed) | set(pool_changed)):
        name = new_pools[pk]
        Entry.objects.filter(pk=pk).update(seed=new_seeds[pk], pool=by_name[name] if name else None)
    new = {entries[pk].team.code: {"seed": new_seeds[pk], "pool": new_pools[pk]}
           for pk in sorted(set(seed_changed) | set(pool_changed))}
    audit_record(action=AuditRecord.Action.ENTRIES_ARRANGED, tournament=tournament, user=user, old=old, new=new)
    tournament_changed(tournament)
    return len(new)


@transaction.atomic
def entries_into_one_pool(*, tournament: Tournament, name: str) -> Pool | None:
    """Put every entry without a pool into the tournament's one pool (``name``, made if needed): a league needs
    no draw. A tournament already split into several pools is left as it is (None)."""
    pools = list(Pool.objects.filter(tournament=tournament))
    if len(pools) > 1:
        return None
    pool = pools[0] if pools else pool_create(tournament=tournament, name=name, order=1)
    if Entry.objects.filter(tournament=tournament, pool__isnull=True).update(pool=pool):
        tournament_changed(tournament)
    return pool
