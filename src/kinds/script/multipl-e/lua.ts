/**
 * Lua (MultiPL-E `humaneval_to_lua.py`): the tests bind `local candidate = <entry point>` inside
 * `function test_humaneval()` and assert `lu.assertEquals(candidate(...), <expected>)`, one case per call.
 * luaunit compares numbers with `==` (1 == 1.0) and tables deeply, which the value comparison follows
 * (`src/kinds/script/values.ts`). A table whose keys are exactly 1..#t is a list, any other a map.
 */
import { VALUE_TAG } from '../values.js';
import { callsOf, type SourceSyntax, type SplitTests, type ValueSplit } from '../split.js';

const LUA_SYNTAX: SourceSyntax = { quotes: ['"', '\''], lineComment: '--' };

/** Lua 5.4 source: `crucible_value_line(i, v)` writes `CRUCIBLE-VALUE i <json>` on a line of its own. */
const LUA_SERIALIZER = String.raw`
local crucible_json
local function crucible_string(s)
  return '"' .. (s:gsub('[%c"\\]', function(c) return string.format('\\u%04x', c:byte()) end)) .. '"'
end
crucible_json = function(v, depth)
  if depth > 100 then error('value nested too deeply') end
  local t = type(v)
  if v == nil then return 'null' end
  if t == 'boolean' then return v and 'true' or 'false' end
  if t == 'number' then
    if math.type(v) == 'integer' then return string.format('%d', v) end
    if v ~= v then return '{"$float":"nan"}' end
    if v == math.huge then return '{"$float":"inf"}' end
    if v == -math.huge then return '{"$float":"-inf"}' end
    local s = string.format('%.17g', v)
    if not s:find('[.eE]') then s = s .. '.0' end
    return s
  end
  if t == 'string' then return crucible_string(v) end
  if t == 'table' then
    local n, count, parts = #v, 0, {}
    for _ in pairs(v) do count = count + 1 end
    if count == n then
      for i = 1, n do parts[i] = crucible_json(v[i], depth + 1) end
      return '[' .. table.concat(parts, ',') .. ']'
    end
    for k, x in pairs(v) do parts[#parts + 1] = '[' .. crucible_json(k, depth + 1) .. ',' .. crucible_json(x, depth + 1) .. ']' end
    return '{"$map":[' .. table.concat(parts, ',') .. ']}'
  end
  error('a ' .. t .. ' cannot be given as a value')
end
local function crucible_value_line(i, v)
  io.write('\n${VALUE_TAG} ', i, ' ', crucible_json(v, 0), '\n')
  io.stdout:flush()
end
`;

/** MultiPL-E Lua split (see the module comment). */
export const LUA_SPLIT: ValueSplit = {
  cases(test: string): SplitTests | undefined {
    const binding = /^[ \t]*local\s+candidate\s*=\s*[\w.]+[ \t]*$/m.exec(test);
    const calls = callsOf(test, 'lu.assertEquals', LUA_SYNTAX);
    if (binding === null || calls === undefined || calls.length === 0 || calls.some((args) => args.length !== 2)) return undefined;
    return { prelude: binding[0].trim(), cases: calls.map(([actual, expected]) => ({ actual: actual!, expected: expected! })) };
  },
  candidateProgram: ({ program, tests }) => [
    program, LUA_SERIALIZER, tests.prelude,
    ...tests.cases.map((c, i) => `crucible_value_line(${i}, (${c.actual}))`), '',
  ].join('\n'),
  expectedProgram: ({ tests }) => [
    LUA_SERIALIZER, ...tests.cases.map((c, i) => `crucible_value_line(${i}, (${c.expected}))`), '',
  ].join('\n'),
};
