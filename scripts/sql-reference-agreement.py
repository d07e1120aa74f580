#!/usr/bin/python3
"""Record what the published SQL evaluators answer on query pairs we wrote, as fixtures for Crucible's tests.

The evaluators are read from git mirrors of their public repositories (never copied into this tree): they are
extracted with `git show` into a temporary folder and imported from there.
  - Spider's test-suite evaluator: taoyds/test-suite-sql-eval @ e97acc5 (`exec_eval.eval_exec_match`,
    `exec_eval.postprocess`, `parse.remove_distinct`, `exec_eval.replace_cur_year`)
  - BIRD's `evaluation.py`: AlibabaResearch/DAMO-ConvAI `bird/llm/src/evaluation.py` at HEAD (set equality) and
    at bcbfb0c (rows sorted by str(x), "bird-ex-sorted")
  - BIRD mini-dev: bird-bench/mini_dev `evaluation/evaluation_utils.py` + `evaluation_f1.py` (soft F1)
Needs Debian's python3-sqlparse and python3-tqdm. The databases are built here from Spider's tables.json schemas
with data written below (three instances of each, test-suite style). Every evaluator runs on scratch copies (they
open databases read-write). Nothing of Spider's own data is written out: for the dev gold queries only 16 hex digits of the SHA-256
of remove_distinct's output is kept (the test reads dev.json from ../shared/data).

Usage:
  scripts/sql-reference-agreement.py --mirrors /work/.mirror --tables ../shared/data/spider/spider/evaluation_examples/examples/tables.json \
    --dev ../shared/data/spider/spider/evaluation_examples/examples/dev.json --out test/fixtures/sql
Writes reference-agreement.json (pairs, executed results, answers) and remove-distinct.json.
"""
import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import types

SPIDER_COMMIT = 'e97acc546ecbee8fa27fa8dbf025ef61493a876c'
BIRD_SORTED_COMMIT = 'bcbfb0c'


def git_show(mirror, rev, path, dest):
    data = subprocess.run(['git', '--git-dir', mirror, 'show', f'{rev}:{path}'], check=True, capture_output=True).stdout
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, 'wb') as f:
        f.write(data)


def head(mirror):
    return subprocess.run(['git', '--git-dir', mirror, 'rev-parse', 'HEAD'], check=True, capture_output=True, text=True).stdout.strip()


def load_module(name, path):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def stub_modules():
    ft = types.ModuleType('func_timeout')

    class FunctionTimedOut(Exception):
        pass

    def func_timeout(timeout, func, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))
    ft.FunctionTimedOut = FunctionTimedOut
    ft.func_timeout = func_timeout
    sys.modules['func_timeout'] = ft
    for name in ('psycopg2', 'pymysql'):
        sys.modules[name] = types.ModuleType(name)


# ---- databases -------------------------------------------------------------------------------------------------

REAL_COLUMNS = {('stadium', 'Average'), ('Pets', 'weight')}


def create_schema(conn, schema):
    tables = schema['table_names_original']
    for ti, table in enumerate(tables):
        cols = []
        for (t, name), ctype in zip(schema['column_names_original'], schema['column_types']):
            if t != ti:
                continue
            if ctype == 'number':
                decl = 'real' if (table, name) in REAL_COLUMNS else 'int'
            elif ctype == 'others':
                decl = 'bool'
            else:
                decl = 'text'
            cols.append(f'"{name}" {decl}')
        conn.execute(f'CREATE TABLE "{table}" ({", ".join(cols)})')


CONCERT_BASE = {
    'stadium': [
        (1, 'Raith Rovers', "Stark's Park", 10104, 4812, 1294, 2106.0),
        (2, 'Ayr United', 'Somerset Park', 11998, 2363, 1057, 1477.0),
        (3, 'East Fife', 'Bayview Stadium', 2000, 1980, 533, 864.0),
        (4, "Queen's Park", 'Hampden Park', 52500, 1763, 466, 730.0),
        (5, 'Peterhead', 'Balmoor', None, 837, 400, 615.5),
    ],
    'singer': [
        (1, 'Joe Sharp', 'Netherlands', 'You', '1992', 52, 'F'),
        (2, 'Timbaland', 'United States', 'Dangerous', '2008', 32, 'T'),
        (3, 'Justin Brown', 'France', 'Hey Oh', '2013', 29, 'T'),
        (4, 'Rose White', 'France', 'Sun', '2003', 41, 'F'),
        (5, 'John Nizinik', 'France', 'Gentleman', '2014', 43, 'T'),
        (6, 'Tribal King', 'France', 'Love', '2016', 24, 'T'),
        (7, 'Ann Lee', 'Netherlands', None, '2016', 25, 'F'),
    ],
    'concert': [
        (1, 'Auditions', 'Free choice', '1', '2014'),
        (2, 'Super bootcamp', 'Free choice 2', '2', '2014'),
        (3, 'Home Visits', 'Bleeding Love', '2', '2015'),
        (4, 'Week 1', 'Wide Awake', '10', '2014'),
        (5, 'Week 1', 'Happy Tonight', '9', '2015'),
        (6, 'Week 2', 'Party All Night', '7', '2015'),
    ],
    'singer_in_concert': [(1, '2'), (1, '3'), (1, '5'), (2, '3'), (2, '6'), (3, '5'), (4, '4'), (5, '6'), (5, '3'), (6, '2')],
}

# Test-suite-style variants: same schema, other data that tells apart queries the base data does not.
CONCERT_VARIANTS = [
    {
        'stadium': [(1, 'Raith Rovers', "Stark's Park", 10104, 4812, 1294, 2106.0), (2, 'Ayr United', 'Somerset Park', 900, 2363, 1057, 1477.25)],
        'singer': [
            (1, 'Joe Sharp', 'Netherlands', 'You', '1992', 24, 'F'),
            (2, 'Timbaland', 'United States', 'Dangerous', '2008', 32, 'T'),
            (3, 'Justin Brown', 'France', 'Hey Oh', '2013', 24, 'T'),
            (4, 'Rose White', 'Germany', 'Sun', '2003', 41, 'F'),
            (8, 'Ann Lee', 'Netherlands', None, '2016', 25, 'F'),
        ],
        'concert': [(1, 'Auditions', 'Free choice', '1', '2014'), (7, 'Finals', 'Free choice', '2', '2016')],
        'singer_in_concert': [(1, '2'), (7, '3'), (7, '8')],
    },
    {
        'stadium': [(3, 'East Fife', 'Bayview Stadium', 2000, 1980, 533, 864.0)],
        'singer': [
            (2, 'Timbaland', 'United States', 'Dangerous', '2008', 32, 'T'),
            (5, 'John Nizinik', 'France', 'Gentleman', '2014', 43, 'T'),
            (6, 'Tribal King', 'France', 'Love', '2016', 24, 'T'),
            (9, 'Joe Sharp', 'France', 'Sun', '2014', 61, 'F'),
        ],
        'concert': [(2, 'Super bootcamp', 'Free choice 2', '3', '2014')],
        'singer_in_concert': [(2, '9'), (2, '6')],
    },
]

PETS_BASE = {
    'Student': [
        (1001, 'Smith', 'Linda', 18, 'F', 600, 1121, 'BAL'),
        (1002, 'Kim', 'Tracy', 19, 'F', 600, 7712, 'HKG'),
        (1003, 'Jones', 'Shiela', 21, 'F', 600, 7792, 'WAS'),
        (1004, 'Kumar', 'Dinesh', 20, 'M', 600, 8423, 'CHI'),
        (1005, 'Gompers', 'Paul', 26, 'M', 600, 1121, 'YYZ'),
        (1006, 'Schultz', 'Andy', 18, 'M', 600, 1148, 'BAL'),
    ],
    'Has_Pet': [(1001, 2001), (1002, 2002), (1002, 2003)],
    'Pets': [(2001, 'cat', 3, 12.0), (2002, 'dog', 2, 13.4), (2003, 'dog', 1, 9.3)],
}

PETS_VARIANTS = [
    {
        'Student': [(1001, 'Smith', 'Linda', 18, 'F', 600, 1121, 'BAL'), (1007, 'Apap', 'Lisa', 18, 'F', 50, 8918, 'PIT')],
        'Has_Pet': [(1001, 2001), (1007, 2004)],
        'Pets': [(2001, 'cat', 3, 12.0), (2004, 'cat', 5, 0.30000000000000004)],
    },
    {'Student': [(1002, 'Kim', 'Tracy', 19, 'F', 600, 7712, 'HKG')], 'Has_Pet': [], 'Pets': [(2002, 'dog', 2, 13.4)]},
]


def fill(conn, data):
    for table, rows in data.items():
        for row in rows:
            conn.execute(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(row))})', row)


def build_database(folder, db_id, schema, instances, extra_sql=None):
    os.makedirs(folder, exist_ok=True)
    for k, data in enumerate(instances):
        name = f'{db_id}.sqlite' if k == 0 else f'{db_id}_{k}.sqlite'
        conn = sqlite3.connect(os.path.join(folder, name))
        create_schema(conn, schema)
        fill(conn, data)
        if extra_sql and k == 0:
            conn.executescript(extra_sql)
        conn.commit()
        conn.close()


# Invalid UTF-8 in a TEXT value (singer 8) of a one-instance copy of concert_singer (db `not_utf8`): Spider's evaluator drops the bad
# byte, BIRD's raises.
CONCERT_EXTRA = "INSERT INTO singer VALUES (8, CAST(x'416e6eff' AS TEXT), 'Netherlands', 'Now', '2016', 99, 'F');"

# ---- the pairs -------------------------------------------------------------------------------------------------

PAIRS = [
    # (id, db, gold, predicted)
    ('identical', 'concert_singer', 'SELECT count(*) FROM singer', 'SELECT count(*) FROM singer'),
    ('duplicates-vs-distinct-pred', 'concert_singer', 'SELECT Country FROM singer', 'SELECT DISTINCT Country FROM singer'),
    ('distinct-gold-vs-group-by', 'concert_singer', 'SELECT DISTINCT Country FROM singer', 'SELECT Country FROM singer GROUP BY Country'),
    ('count-distinct-rewritten', 'concert_singer', 'SELECT count(DISTINCT Country) FROM singer',
     'SELECT count(*) FROM (SELECT Country FROM singer GROUP BY Country)'),
    ('count-distinct-subquery', 'concert_singer', 'SELECT count(DISTINCT Country) FROM singer',
     'SELECT count(*) FROM (SELECT DISTINCT Country FROM singer)'),
    ('order-by-reversed', 'concert_singer', 'SELECT Name FROM singer ORDER BY Age DESC', 'SELECT Name FROM singer ORDER BY Age ASC'),
    ('order-not-in-gold', 'concert_singer', 'SELECT Name FROM singer', 'SELECT Name FROM singer ORDER BY Name'),
    ('column-permutation', 'concert_singer', 'SELECT Name, Age FROM singer', 'SELECT Age, Name FROM singer'),
    ('column-permutation-ordered', 'concert_singer', 'SELECT Name, Singer_ID FROM singer ORDER BY Singer_ID',
     'SELECT Singer_ID, Name FROM singer ORDER BY Singer_ID'),
    ('extra-column', 'concert_singer', 'SELECT Name FROM singer', 'SELECT Name, Age FROM singer'),
    ('null-dropped', 'concert_singer', 'SELECT Song_Name FROM singer', 'SELECT Song_Name FROM singer WHERE Song_Name IS NOT NULL'),
    ('null-equals-null', 'concert_singer', 'SELECT max(Capacity) FROM stadium WHERE Capacity IS NULL', 'SELECT NULL'),
    ('float-sum', 'concert_singer', 'SELECT 0.3', 'SELECT 0.1 + 0.2'),
    ('int-vs-float', 'concert_singer', 'SELECT count(*) FROM singer', 'SELECT count(*) * 1.0 FROM singer'),
    ('text-vs-int', 'concert_singer', 'SELECT Stadium_ID FROM concert', 'SELECT CAST(Stadium_ID AS INTEGER) FROM concert'),
    ('affinity-in-where', 'concert_singer', 'SELECT count(*) FROM concert WHERE Stadium_ID = 1',
     "SELECT count(*) FROM concert WHERE Stadium_ID = '1'"),
    ('int-float-sort-key', 'concert_singer', 'SELECT 1, 1.5', 'SELECT 1.0, 1.5'),
    ('distinct-in-string', 'concert_singer', "SELECT Name FROM singer WHERE Country = 'France'",
     "SELECT Name FROM singer WHERE Country = 'France' OR Name = 'DISTINCT'"),
    ('lower-case-distinct', 'concert_singer', 'SELECT Name FROM singer', 'select distinct  Name from singer'),
    ('two-statements', 'concert_singer', 'SELECT Name FROM singer', 'SELECT Name FROM singer; SELECT 1'),
    ('spaced-operator', 'concert_singer', 'SELECT Name FROM singer WHERE Age >= 30', 'SELECT Name FROM singer WHERE Age > = 30'),
    ('order-by-two-spaces', 'concert_singer', 'SELECT Name FROM singer ORDER  BY Age', 'SELECT Name FROM singer ORDER BY Age DESC'),
    ('order-by-in-string', 'concert_singer', "SELECT Name FROM singer WHERE Name != 'order by'",
     "SELECT Name FROM singer WHERE Name != 'x' ORDER BY Name DESC"),
    ('both-empty', 'concert_singer', 'SELECT Name FROM singer WHERE Age > 100', 'SELECT Country, Age FROM singer WHERE Age > 200'),
    ('empty-vs-rows', 'concert_singer', 'SELECT Name FROM singer WHERE Age > 100', 'SELECT Name FROM singer'),
    ('pred-error', 'concert_singer', 'SELECT Name FROM singer', 'SELECT Nme FROM singer'),
    ('cur-year', 'concert_singer', 'SELECT count(*) FROM concert WHERE Year < YEAR(CURDATE())',
     'SELECT count(*) FROM concert WHERE Year < 2020'),
    ('min-with-ties', 'concert_singer', 'SELECT Name FROM singer ORDER BY Age LIMIT 1',
     'SELECT Name FROM singer WHERE Age = (SELECT min(Age) FROM singer)'),
    ('hard-coded-count', 'concert_singer', "SELECT count(*) FROM singer WHERE Country = 'France'", 'SELECT 4'),
    ('four-columns-permuted', 'concert_singer', 'SELECT Name, Country, Age, Song_release_year FROM singer',
     'SELECT Age, Song_release_year, Country, Name FROM singer'),
    ('repeated-column', 'concert_singer', 'SELECT Age, Age FROM singer', 'SELECT Age, Singer_ID FROM singer'),
    ('stable-sort-tie', 'concert_singer', "SELECT 1, '1'", "SELECT '1', 1"),
    ('more-duplicates', 'concert_singer', 'SELECT Country FROM singer',
     "SELECT Country FROM singer UNION ALL SELECT Country FROM singer WHERE Country = 'France'"),
    ('same-set-other-bag', 'concert_singer', 'SELECT Country FROM singer',
     "SELECT CASE WHEN Singer_ID = 1 THEN 'United States' ELSE Country END FROM singer"),
    ('integer-division', 'concert_singer', 'SELECT avg(Age) FROM singer', 'SELECT sum(Age) / count(*) FROM singer'),
    ('avg-by-hand', 'concert_singer', 'SELECT avg(Age) FROM singer', 'SELECT sum(Age) * 1.0 / count(Age) FROM singer'),
    ('not-utf8-text', 'not_utf8', "SELECT 'Ann'", 'SELECT Name FROM singer WHERE Singer_ID = 8'),
    ('null-order', 'concert_singer', 'SELECT Song_Name FROM singer ORDER BY Song_Name', 'SELECT Song_Name FROM singer ORDER BY Song_Name DESC'),
    ('is-distinct-from', 'concert_singer', 'SELECT Name FROM singer WHERE Song_Name IS NOT NULL',
     'SELECT Name FROM singer WHERE Song_Name IS DISTINCT FROM NULL'),
    ('case-of-text', 'concert_singer', "SELECT Name FROM singer WHERE Country = 'France'", "SELECT upper(Name) FROM singer WHERE Country = 'France'"),
    ('negative-zero', 'concert_singer', 'SELECT 0', 'SELECT -0.0'),
    ('beyond-2-53', 'concert_singer', 'SELECT 9007199254740993', 'SELECT 9007199254740992.0'),
    ('join-affinity', 'concert_singer',
     'SELECT T2.Name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.Singer_ID = T2.Singer_ID WHERE T1.concert_ID = 1',
     'SELECT Name FROM singer WHERE Singer_ID IN (SELECT Singer_ID FROM singer_in_concert WHERE concert_ID = 1)'),
    ('soft-f1-partial-rows', 'concert_singer', 'SELECT Name, Country FROM singer ORDER BY Singer_ID',
     "SELECT Name, 'France' FROM singer ORDER BY Singer_ID"),
    ('pets-join', 'pets_1', "SELECT count(*) FROM Student AS T1 JOIN Has_Pet AS T2 ON T1.StuID = T2.StuID WHERE T1.Sex = 'F'",
     "SELECT count(*) FROM Has_Pet WHERE StuID IN (SELECT StuID FROM Student WHERE Sex = 'F')"),
    ('pets-float-weight', 'pets_1', "SELECT weight FROM Pets WHERE PetType = 'cat'", "SELECT weight * 1 FROM Pets WHERE PetType = 'cat'"),
    ('pets-distinct-in-count', 'pets_1', 'SELECT count(DISTINCT PetType) FROM Pets', 'SELECT count(*) FROM (SELECT PetType FROM Pets GROUP BY PetType)'),
    ('pets-avg-group', 'pets_1', 'SELECT avg(weight), PetType FROM Pets GROUP BY PetType',
     'SELECT PetType, avg(weight) FROM Pets GROUP BY PetType ORDER BY PetType'),
]


# ---- running the references ------------------------------------------------------------------------------------

class TextBytes(bytes):
    pass


def wire(v):
    if v is None:
        return None
    if isinstance(v, TextBytes):
        try:
            return bytes(v).decode('utf-8')
        except UnicodeDecodeError:
            return {'badtext': bytes(v).hex()}
    if isinstance(v, bytes):
        return {'blob': v.hex()}
    if isinstance(v, int):
        return v if -(2 ** 53) <= v <= 2 ** 53 else {'int': str(v)}
    if isinstance(v, float):
        if v != v:
            return {'real': 'nan'}
        if v in (float('inf'), float('-inf')):
            return {'real': 'inf' if v > 0 else '-inf'}
        return {'real': v}
    raise TypeError(type(v))


def execute(path, text):
    conn = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
    conn.text_factory = TextBytes
    try:
        rows = conn.execute(text).fetchall()
        return {'rows': [[wire(v) for v in r] for r in rows]}
    except Exception as e:  # noqa: BLE001 - the message is what is recorded
        return {'error': f'{type(e).__name__}: {e}'}
    finally:
        conn.close()


def scratch(folder, work):
    if os.path.exists(work):
        shutil.rmtree(work)
    shutil.copytree(folder, work)
    return work


def outcome(fn):
    try:
        return {'value': fn()}
    except Exception as e:  # noqa: BLE001
        return {'raised': f'{type(e).__name__}: {e}'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mirrors', required=True)
    ap.add_argument('--tables', required=True)
    ap.add_argument('--dev', required=True)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix='sql-ref-')
    ref = os.path.join(tmp, 'ref')
    ts = os.path.join(args.mirrors, 'taoyds+test-suite-sql-eval', 'repo')
    damo = os.path.join(args.mirrors, 'AlibabaResearch+DAMO-ConvAI', 'repo')
    mini = os.path.join(args.mirrors, 'bird-bench+mini_dev', 'repo')
    for f in ('exec_eval.py', 'parse.py'):
        git_show(ts, SPIDER_COMMIT, f, os.path.join(ref, 'spider', f))
    git_show(damo, 'HEAD', 'bird/llm/src/evaluation.py', os.path.join(ref, 'bird', 'evaluation.py'))
    git_show(damo, BIRD_SORTED_COMMIT, 'bird/llm/src/evaluation.py', os.path.join(ref, 'bird_sorted', 'evaluation.py'))
    for f in ('evaluation_utils.py', 'evaluation_f1.py'):
        git_show(mini, 'HEAD', f'evaluation/{f}', os.path.join(ref, 'mini', f))
    stub_modules()
    sys.path.insert(0, os.path.join(ref, 'spider'))
    exec_eval = load_module('exec_eval', os.path.join(ref, 'spider', 'exec_eval.py'))
    parse = sys.modules['parse']
    bird = load_module('bird_evaluation', os.path.join(ref, 'bird', 'evaluation.py'))
    bird_sorted = load_module('bird_sorted_evaluation', os.path.join(ref, 'bird_sorted', 'evaluation.py'))
    sys.path.insert(0, os.path.join(ref, 'mini'))
    mini_utils = load_module('evaluation_utils', os.path.join(ref, 'mini', 'evaluation_utils.py'))
    mini_f1 = load_module('evaluation_f1', os.path.join(ref, 'mini', 'evaluation_f1.py'))

    schemas = {d['db_id']: d for d in json.load(open(args.tables))}
    dbroot = os.path.join(tmp, 'database')
    build_database(os.path.join(dbroot, 'concert_singer'), 'concert_singer', schemas['concert_singer'],
                   [CONCERT_BASE] + CONCERT_VARIANTS)
    build_database(os.path.join(dbroot, 'not_utf8'), 'not_utf8', schemas['concert_singer'], [CONCERT_BASE], CONCERT_EXTRA)
    build_database(os.path.join(dbroot, 'pets_1'), 'pets_1', schemas['pets_1'], [PETS_BASE] + PETS_VARIANTS)
    pairs = list(PAIRS)

    records = []
    for pid, db, gold, pred in pairs:
        folder = os.path.join(dbroot, db)
        instances = sorted(n for n in os.listdir(folder) if '.sqlite' in n)
        instances.sort(key=lambda n: n != f'{db}.sqlite')
        work = os.path.join(tmp, 'work', db)
        scratch(folder, work)
        spider_answer = outcome(lambda: exec_eval.eval_exec_match(
            os.path.join(work, f'{db}.sqlite'), pred, gold, plug_value=False, keep_distinct=False,
            progress_bar_for_each_datapoint=False))
        g1, p1 = exec_eval.postprocess(gold), exec_eval.postprocess(pred)
        g2 = outcome(lambda: parse.remove_distinct(g1))
        p2 = outcome(lambda: parse.remove_distinct(p1))
        spider_gold = exec_eval.replace_cur_year(g2['value']) if 'value' in g2 else None
        spider_pred = exec_eval.replace_cur_year(p2['value']) if 'value' in p2 else None
        texts = {gold, pred}
        if spider_gold is not None:
            texts.add(spider_gold)
        if spider_pred is not None:
            texts.add(spider_pred)
        results = {t: [execute(os.path.join(folder, n), t) for n in instances] for t in sorted(texts)}
        per_instance = []
        for n in instances:
            scratch(folder, work)
            path = os.path.join(work, n)
            per_instance.append({
                'birdEx': outcome(lambda: bird.execute_sql(pred, gold, path)),
                'birdExSorted': outcome(lambda: bird_sorted.execute_sql(pred, gold, path)),
                'softF1': outcome(lambda: mini_utils.execute_sql(pred, gold, path, 'SQLite', mini_f1.calculate_f1_score)),
            })
        records.append({
            'id': pid, 'db': db, 'instances': instances, 'gold': gold, 'predicted': pred,
            'spider': {'goldText': spider_gold, 'predictedText': spider_pred,
                       'orderMatters': g2['value'].lower().count('order by') > 0 if 'value' in g2 else None,
                       'answer': spider_answer},
            'bird': per_instance,
            'results': results,
        })
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'reference-agreement.json'), 'w') as f:
        json.dump({
            'sources': {
                'spider': f'taoyds/test-suite-sql-eval@{SPIDER_COMMIT} exec_eval.eval_exec_match',
                'birdEx': f'AlibabaResearch/DAMO-ConvAI@{head(damo)} bird/llm/src/evaluation.py execute_sql',
                'birdExSorted': f'AlibabaResearch/DAMO-ConvAI@{BIRD_SORTED_COMMIT} bird/llm/src/evaluation.py execute_sql',
                'softF1': f'bird-bench/mini_dev@{head(mini)} evaluation/evaluation_utils.execute_sql + evaluation_f1.calculate_f1_score',
                'python': sys.version.split()[0], 'sqlite': sqlite3.sqlite_version,
            },
            'pairs': records,
        }, f, indent=1, ensure_ascii=False)

    # remove_distinct on every Spider dev gold query and on seeded random strings.
    dev_all = json.load(open(args.dev))
    rng = random.Random(20260101)
    alphabet = ['distinct', 'DISTINCT', 'Distinct', ' ', '  ', '\n', '\t', ';', '(', ')', "'", '"', '`', '[', ']',
                '.', ',', '--', '/*', '*/', 'a', 'x1', '$', ':', '@', '#', '1', '0.5', 'END', 'CREATE', 'BEGIN',
                'select', 'order by', 'é', '\u00d7', '_', '\\', '>', '=', 'count(', 'ORDER  BY', "''"]
    fuzz = [''.join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(1500)]
    import hashlib
    dev_cases = []
    for i, q in enumerate(dev_all):
        r = outcome(lambda: parse.remove_distinct(q['query']))
        out = r.get('value')
        dev_cases.append({'index': i, 'sha256': None if out is None else hashlib.sha256(out.encode('utf-8')).hexdigest()[:16]})
    fuzz_cases = []
    for text in fuzz:
        r = outcome(lambda: parse.remove_distinct(text))
        fuzz_cases.append({'input': text, 'output': r.get('value')})
    with open(os.path.join(args.out, 'remove-distinct.json'), 'w') as f:
        json.dump({'source': f'taoyds/test-suite-sql-eval@{SPIDER_COMMIT} parse.remove_distinct, sqlparse 0.4.2',
                   'dev': dev_cases, 'fuzz': fuzz_cases}, f, indent=0, ensure_ascii=False)
    cases = dev_cases + fuzz_cases
    shutil.rmtree(tmp)
    print(f'{len(records)} pairs, {len(cases)} remove_distinct cases')


if __name__ == '__main__':
    main()
