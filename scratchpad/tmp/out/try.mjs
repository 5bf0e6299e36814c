var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn2, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn2 && (res = (0, fn2[__getOwnPropNames(fn2)[0]])(fn2 = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __export = (target, all2) => {
  for (var name in all2)
    __defProp(target, name, { get: all2[name], enumerable: true });
};

// node_modules/effect/dist/esm/Function.js
function pipe(a, ab, bc, cd, de, ef, fg, gh, hi) {
  switch (arguments.length) {
    case 1:
      return a;
    case 2:
      return ab(a);
    case 3:
      return bc(ab(a));
    case 4:
      return cd(bc(ab(a)));
    case 5:
      return de(cd(bc(ab(a))));
    case 6:
      return ef(de(cd(bc(ab(a)))));
    case 7:
      return fg(ef(de(cd(bc(ab(a))))));
    case 8:
      return gh(fg(ef(de(cd(bc(ab(a)))))));
    case 9:
      return hi(gh(fg(ef(de(cd(bc(ab(a))))))));
    default: {
      let ret = arguments[0];
      for (let i = 1; i < arguments.length; i++) {
        ret = arguments[i](ret);
      }
      return ret;
    }
  }
}
var isFunction, dual, identity, constant, constTrue, constFalse, constUndefined, constVoid;
var init_Function = __esm({
  "node_modules/effect/dist/esm/Function.js"() {
    isFunction = (input) => typeof input === "function";
    dual = function(arity, body) {
      if (typeof arity === "function") {
        return function() {
          if (arity(arguments)) {
            return body.apply(this, arguments);
          }
          return (self) => body(self, ...arguments);
        };
      }
      switch (arity) {
        case 0:
        case 1:
          throw new RangeError(`Invalid arity ${arity}`);
        case 2:
          return function(a, b) {
            if (arguments.length >= 2) {
              return body(a, b);
            }
            return function(self) {
              return body(self, a);
            };
          };
        case 3:
          return function(a, b, c) {
            if (arguments.length >= 3) {
              return body(a, b, c);
            }
            return function(self) {
              return body(self, a, b);
            };
          };
        case 4:
          return function(a, b, c, d) {
            if (arguments.length >= 4) {
              return body(a, b, c, d);
            }
            return function(self) {
              return body(self, a, b, c);
            };
          };
        case 5:
          return function(a, b, c, d, e) {
            if (arguments.length >= 5) {
              return body(a, b, c, d, e);
            }
            return function(self) {
              return body(self, a, b, c, d);
            };
          };
        default:
          return function() {
            if (arguments.length >= arity) {
              return body.apply(this, arguments);
            }
            const args2 = arguments;
            return function(self) {
              return body(self, ...args2);
            };
          };
      }
    };
    identity = (a) => a;
    constant = (value) => () => value;
    constTrue = /* @__PURE__ */ constant(true);
    constFalse = /* @__PURE__ */ constant(false);
    constUndefined = /* @__PURE__ */ constant(void 0);
    constVoid = constUndefined;
  }
});

// node_modules/effect/dist/esm/Equivalence.js
var make, mapInput, array;
var init_Equivalence = __esm({
  "node_modules/effect/dist/esm/Equivalence.js"() {
    init_Function();
    make = (isEquivalent) => (self, that) => self === that || isEquivalent(self, that);
    mapInput = /* @__PURE__ */ dual(2, (self, f) => make((x, y) => self(f(x), f(y))));
    array = (item) => make((self, that) => {
      if (self.length !== that.length) {
        return false;
      }
      for (let i = 0; i < self.length; i++) {
        const isEq = item(self[i], that[i]);
        if (!isEq) {
          return false;
        }
      }
      return true;
    });
  }
});

// node_modules/effect/dist/esm/GlobalValue.js
var globalStoreId, globalStore, globalValue;
var init_GlobalValue = __esm({
  "node_modules/effect/dist/esm/GlobalValue.js"() {
    globalStoreId = `effect/GlobalValue`;
    globalValue = (id, compute) => {
      if (!globalStore) {
        globalThis[globalStoreId] ??= /* @__PURE__ */ new Map();
        globalStore = globalThis[globalStoreId];
      }
      if (!globalStore.has(id)) {
        globalStore.set(id, compute());
      }
      return globalStore.get(id);
    };
  }
});

// node_modules/effect/dist/esm/Predicate.js
var isString, isNumber, isBigInt, isFunction2, isRecordOrArray, isObject, hasProperty, isTagged, isNullable, isPromiseLike;
var init_Predicate = __esm({
  "node_modules/effect/dist/esm/Predicate.js"() {
    init_Function();
    isString = (input) => typeof input === "string";
    isNumber = (input) => typeof input === "number";
    isBigInt = (input) => typeof input === "bigint";
    isFunction2 = isFunction;
    isRecordOrArray = (input) => typeof input === "object" && input !== null;
    isObject = (input) => isRecordOrArray(input) || isFunction2(input);
    hasProperty = /* @__PURE__ */ dual(2, (self, property) => isObject(self) && property in self);
    isTagged = /* @__PURE__ */ dual(2, (self, tag) => hasProperty(self, "_tag") && self["_tag"] === tag);
    isNullable = (input) => input === null || input === void 0;
    isPromiseLike = (input) => hasProperty(input, "then") && isFunction2(input.then);
  }
});

// node_modules/effect/dist/esm/internal/errors.js
var getBugErrorMessage;
var init_errors = __esm({
  "node_modules/effect/dist/esm/internal/errors.js"() {
    getBugErrorMessage = (message) => `BUG: ${message} - please report an issue at https://github.com/Effect-TS/effect/issues`;
  }
});

// node_modules/effect/dist/esm/Utils.js
function mul64(out, aHi, aLo, bHi, bLo) {
  let c1 = (aLo >>> 16) * (bLo & 65535) >>> 0;
  let c0 = (aLo & 65535) * (bLo >>> 16) >>> 0;
  let lo = (aLo & 65535) * (bLo & 65535) >>> 0;
  let hi = (aLo >>> 16) * (bLo >>> 16) + ((c0 >>> 16) + (c1 >>> 16)) >>> 0;
  c0 = c0 << 16 >>> 0;
  lo = lo + c0 >>> 0;
  if (lo >>> 0 < c0 >>> 0) {
    hi = hi + 1 >>> 0;
  }
  c1 = c1 << 16 >>> 0;
  lo = lo + c1 >>> 0;
  if (lo >>> 0 < c1 >>> 0) {
    hi = hi + 1 >>> 0;
  }
  hi = hi + Math.imul(aLo, bHi) >>> 0;
  hi = hi + Math.imul(aHi, bLo) >>> 0;
  out[0] = hi;
  out[1] = lo;
}
function add64(out, aHi, aLo, bHi, bLo) {
  let hi = aHi + bHi >>> 0;
  const lo = aLo + bLo >>> 0;
  if (lo >>> 0 < aLo >>> 0) {
    hi = hi + 1 | 0;
  }
  out[0] = hi;
  out[1] = lo;
}
function yieldWrapGet(self) {
  if (typeof self === "object" && self !== null && YieldWrapTypeId in self) {
    return self[YieldWrapTypeId]();
  }
  throw new Error(getBugErrorMessage("yieldWrapGet"));
}
var GenKindTypeId, GenKindImpl, SingleShotGen, defaultIncHi, defaultIncLo, MUL_HI, MUL_LO, BIT_53, BIT_27, PCGRandom, YieldWrapTypeId, YieldWrap, structuralRegionState, standard, forced, isNotOptimizedAway, internalCall, genConstructor, isGeneratorFunction;
var init_Utils = __esm({
  "node_modules/effect/dist/esm/Utils.js"() {
    init_Function();
    init_GlobalValue();
    init_errors();
    init_Predicate();
    GenKindTypeId = /* @__PURE__ */ Symbol.for("effect/Gen/GenKind");
    GenKindImpl = class {
      value;
      constructor(value) {
        this.value = value;
      }
      /**
       * @since 2.0.0
       */
      get _F() {
        return identity;
      }
      /**
       * @since 2.0.0
       */
      get _R() {
        return (_) => _;
      }
      /**
       * @since 2.0.0
       */
      get _O() {
        return (_) => _;
      }
      /**
       * @since 2.0.0
       */
      get _E() {
        return (_) => _;
      }
      /**
       * @since 2.0.0
       */
      [GenKindTypeId] = GenKindTypeId;
      /**
       * @since 2.0.0
       */
      [Symbol.iterator]() {
        return new SingleShotGen(this);
      }
    };
    SingleShotGen = class _SingleShotGen {
      self;
      called = false;
      constructor(self) {
        this.self = self;
      }
      /**
       * @since 2.0.0
       */
      next(a) {
        return this.called ? {
          value: a,
          done: true
        } : (this.called = true, {
          value: this.self,
          done: false
        });
      }
      /**
       * @since 2.0.0
       */
      return(a) {
        return {
          value: a,
          done: true
        };
      }
      /**
       * @since 2.0.0
       */
      throw(e) {
        throw e;
      }
      /**
       * @since 2.0.0
       */
      [Symbol.iterator]() {
        return new _SingleShotGen(this.self);
      }
    };
    defaultIncHi = 335903614;
    defaultIncLo = 4150755663;
    MUL_HI = 1481765933 >>> 0;
    MUL_LO = 1284865837 >>> 0;
    BIT_53 = 9007199254740992;
    BIT_27 = 134217728;
    PCGRandom = class {
      _state;
      constructor(seedHi, seedLo, incHi, incLo) {
        if (isNullable(seedLo) && isNullable(seedHi)) {
          seedLo = Math.random() * 4294967295 >>> 0;
          seedHi = 0;
        } else if (isNullable(seedLo)) {
          seedLo = seedHi;
          seedHi = 0;
        }
        if (isNullable(incLo) && isNullable(incHi)) {
          incLo = this._state ? this._state[3] : defaultIncLo;
          incHi = this._state ? this._state[2] : defaultIncHi;
        } else if (isNullable(incLo)) {
          incLo = incHi;
          incHi = 0;
        }
        this._state = new Int32Array([0, 0, incHi >>> 0, ((incLo || 0) | 1) >>> 0]);
        this._next();
        add64(this._state, this._state[0], this._state[1], seedHi >>> 0, seedLo >>> 0);
        this._next();
        return this;
      }
      /**
       * Returns a copy of the internal state of this random number generator as a
       * JavaScript Array.
       *
       * @category getters
       * @since 2.0.0
       */
      getState() {
        return [this._state[0], this._state[1], this._state[2], this._state[3]];
      }
      /**
       * Restore state previously retrieved using `getState()`.
       *
       * @since 2.0.0
       */
      setState(state) {
        this._state[0] = state[0];
        this._state[1] = state[1];
        this._state[2] = state[2];
        this._state[3] = state[3] | 1;
      }
      /**
       * Get a uniformly distributed 32 bit integer between [0, max).
       *
       * @category getter
       * @since 2.0.0
       */
      integer(max2) {
        return Math.round(this.number() * Number.MAX_SAFE_INTEGER) % max2;
      }
      /**
       * Get a uniformly distributed IEEE-754 double between 0.0 and 1.0, with
       * 53 bits of precision (every bit of the mantissa is randomized).
       *
       * @category getters
       * @since 2.0.0
       */
      number() {
        const hi = (this._next() & 67108863) * 1;
        const lo = (this._next() & 134217727) * 1;
        return (hi * BIT_27 + lo) / BIT_53;
      }
      /** @internal */
      _next() {
        const oldHi = this._state[0] >>> 0;
        const oldLo = this._state[1] >>> 0;
        mul64(this._state, oldHi, oldLo, MUL_HI, MUL_LO);
        add64(this._state, this._state[0], this._state[1], this._state[2], this._state[3]);
        let xsHi = oldHi >>> 18;
        let xsLo = (oldLo >>> 18 | oldHi << 14) >>> 0;
        xsHi = (xsHi ^ oldHi) >>> 0;
        xsLo = (xsLo ^ oldLo) >>> 0;
        const xorshifted = (xsLo >>> 27 | xsHi << 5) >>> 0;
        const rot = oldHi >>> 27;
        const rot2 = (-rot >>> 0 & 31) >>> 0;
        return (xorshifted >>> rot | xorshifted << rot2) >>> 0;
      }
    };
    YieldWrapTypeId = /* @__PURE__ */ Symbol.for("effect/Utils/YieldWrap");
    YieldWrap = class {
      /**
       * @since 3.0.6
       */
      #value;
      constructor(value) {
        this.#value = value;
      }
      /**
       * @since 3.0.6
       */
      [YieldWrapTypeId]() {
        return this.#value;
      }
    };
    structuralRegionState = /* @__PURE__ */ globalValue("effect/Utils/isStructuralRegion", () => ({
      enabled: false,
      tester: void 0
    }));
    standard = {
      effect_internal_function: (body) => {
        return body();
      }
    };
    forced = {
      effect_internal_function: (body) => {
        try {
          return body();
        } finally {
        }
      }
    };
    isNotOptimizedAway = /* @__PURE__ */ standard.effect_internal_function(() => new Error().stack)?.includes("effect_internal_function") === true;
    internalCall = isNotOptimizedAway ? standard.effect_internal_function : forced.effect_internal_function;
    genConstructor = function* () {
    }.constructor;
    isGeneratorFunction = (u) => isObject(u) && u.constructor === genConstructor;
  }
});

// node_modules/effect/dist/esm/Hash.js
var randomHashCache, symbol, hash, random, combine, optimize, isHash, number, string, structureKeys, structure, array2, cached;
var init_Hash = __esm({
  "node_modules/effect/dist/esm/Hash.js"() {
    init_Function();
    init_GlobalValue();
    init_Predicate();
    init_Utils();
    randomHashCache = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/Hash/randomHashCache"), () => /* @__PURE__ */ new WeakMap());
    symbol = /* @__PURE__ */ Symbol.for("effect/Hash");
    hash = (self) => {
      if (structuralRegionState.enabled === true) {
        return 0;
      }
      switch (typeof self) {
        case "number":
          return number(self);
        case "bigint":
          return string(self.toString(10));
        case "boolean":
          return string(String(self));
        case "symbol":
          return string(String(self));
        case "string":
          return string(self);
        case "undefined":
          return string("undefined");
        case "function":
        case "object": {
          if (self === null) {
            return string("null");
          } else if (self instanceof Date) {
            if (Number.isNaN(self.getTime())) {
              return string("Invalid Date");
            }
            return hash(self.toISOString());
          } else if (self instanceof URL) {
            return hash(self.href);
          } else if (isHash(self)) {
            return self[symbol]();
          } else {
            return random(self);
          }
        }
        default:
          throw new Error(`BUG: unhandled typeof ${typeof self} - please report an issue at https://github.com/Effect-TS/effect/issues`);
      }
    };
    random = (self) => {
      if (!randomHashCache.has(self)) {
        randomHashCache.set(self, number(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER)));
      }
      return randomHashCache.get(self);
    };
    combine = (b) => (self) => self * 53 ^ b;
    optimize = (n) => n & 3221225471 | n >>> 1 & 1073741824;
    isHash = (u) => hasProperty(u, symbol);
    number = (n) => {
      if (n !== n || n === Infinity) {
        return 0;
      }
      let h = n | 0;
      if (h !== n) {
        h ^= n * 4294967295;
      }
      while (n > 4294967295) {
        h ^= n /= 4294967295;
      }
      return optimize(h);
    };
    string = (str) => {
      let h = 5381, i = str.length;
      while (i) {
        h = h * 33 ^ str.charCodeAt(--i);
      }
      return optimize(h);
    };
    structureKeys = (o, keys5) => {
      let h = 12289;
      for (let i = 0; i < keys5.length; i++) {
        h ^= pipe(string(keys5[i]), combine(hash(o[keys5[i]])));
      }
      return optimize(h);
    };
    structure = (o) => structureKeys(o, Object.keys(o));
    array2 = (arr) => {
      let h = 6151;
      for (let i = 0; i < arr.length; i++) {
        h = pipe(h, combine(hash(arr[i])));
      }
      return optimize(h);
    };
    cached = function() {
      if (arguments.length === 1) {
        const self2 = arguments[0];
        return function(hash3) {
          Object.defineProperty(self2, symbol, {
            value() {
              return hash3;
            },
            enumerable: false
          });
          return hash3;
        };
      }
      const self = arguments[0];
      const hash2 = arguments[1];
      Object.defineProperty(self, symbol, {
        value() {
          return hash2;
        },
        enumerable: false
      });
      return hash2;
    };
  }
});

// node_modules/effect/dist/esm/Equal.js
function equals() {
  if (arguments.length === 1) {
    return (self) => compareBoth(self, arguments[0]);
  }
  return compareBoth(arguments[0], arguments[1]);
}
function compareBoth(self, that) {
  if (self === that) {
    return true;
  }
  const selfType = typeof self;
  if (selfType !== typeof that) {
    return false;
  }
  if (selfType === "object" || selfType === "function") {
    if (self !== null && that !== null) {
      if (isEqual(self) && isEqual(that)) {
        if (hash(self) === hash(that) && self[symbol2](that)) {
          return true;
        } else {
          return structuralRegionState.enabled && structuralRegionState.tester ? structuralRegionState.tester(self, that) : false;
        }
      } else if (self instanceof Date && that instanceof Date) {
        const t1 = self.getTime();
        const t2 = that.getTime();
        return t1 === t2 || Number.isNaN(t1) && Number.isNaN(t2);
      } else if (self instanceof URL && that instanceof URL) {
        return self.href === that.href;
      }
    }
    if (structuralRegionState.enabled) {
      if (self === null || that === null) {
        return false;
      }
      if (Array.isArray(self) && Array.isArray(that)) {
        return self.length === that.length && self.every((v, i) => compareBoth(v, that[i]));
      }
      if (Object.getPrototypeOf(self) === Object.prototype && Object.getPrototypeOf(that) === Object.prototype) {
        const keysSelf = Object.keys(self);
        const keysThat = Object.keys(that);
        if (keysSelf.length === keysThat.length) {
          for (const key of keysSelf) {
            if (!(key in that && compareBoth(self[key], that[key]))) {
              return structuralRegionState.tester ? structuralRegionState.tester(self, that) : false;
            }
          }
          return true;
        }
      }
      return structuralRegionState.tester ? structuralRegionState.tester(self, that) : false;
    }
  }
  return structuralRegionState.enabled && structuralRegionState.tester ? structuralRegionState.tester(self, that) : false;
}
var symbol2, isEqual, equivalence;
var init_Equal = __esm({
  "node_modules/effect/dist/esm/Equal.js"() {
    init_Hash();
    init_Predicate();
    init_Utils();
    symbol2 = /* @__PURE__ */ Symbol.for("effect/Equal");
    isEqual = (u) => hasProperty(u, symbol2);
    equivalence = () => equals;
  }
});

// node_modules/effect/dist/esm/Inspectable.js
var NodeInspectSymbol, toJSON, format, BaseProto, Class, toStringUnknown, stringifyCircular, symbolRedactable, isRedactable, redactableState, withRedactableContext, redact;
var init_Inspectable = __esm({
  "node_modules/effect/dist/esm/Inspectable.js"() {
    init_GlobalValue();
    init_Predicate();
    NodeInspectSymbol = /* @__PURE__ */ Symbol.for("nodejs.util.inspect.custom");
    toJSON = (x) => {
      try {
        if (hasProperty(x, "toJSON") && isFunction2(x["toJSON"]) && x["toJSON"].length === 0) {
          return x.toJSON();
        } else if (Array.isArray(x)) {
          return x.map(toJSON);
        }
      } catch {
        return {};
      }
      return redact(x);
    };
    format = (x) => JSON.stringify(x, null, 2);
    BaseProto = {
      toJSON() {
        return toJSON(this);
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      toString() {
        return format(this.toJSON());
      }
    };
    Class = class {
      /**
       * @since 2.0.0
       */
      [NodeInspectSymbol]() {
        return this.toJSON();
      }
      /**
       * @since 2.0.0
       */
      toString() {
        return format(this.toJSON());
      }
    };
    toStringUnknown = (u, whitespace = 2) => {
      if (typeof u === "string") {
        return u;
      }
      try {
        return typeof u === "object" ? stringifyCircular(u, whitespace) : String(u);
      } catch {
        return String(u);
      }
    };
    stringifyCircular = (obj, whitespace) => {
      let cache = [];
      const retVal = JSON.stringify(obj, (_key, value) => typeof value === "object" && value !== null ? cache.includes(value) ? void 0 : cache.push(value) && (redactableState.fiberRefs !== void 0 && isRedactable(value) ? value[symbolRedactable](redactableState.fiberRefs) : value) : value, whitespace);
      cache = void 0;
      return retVal;
    };
    symbolRedactable = /* @__PURE__ */ Symbol.for("effect/Inspectable/Redactable");
    isRedactable = (u) => typeof u === "object" && u !== null && symbolRedactable in u;
    redactableState = /* @__PURE__ */ globalValue("effect/Inspectable/redactableState", () => ({
      fiberRefs: void 0
    }));
    withRedactableContext = (context2, f) => {
      const prev = redactableState.fiberRefs;
      redactableState.fiberRefs = context2;
      try {
        return f();
      } finally {
        redactableState.fiberRefs = prev;
      }
    };
    redact = (u) => {
      if (isRedactable(u) && redactableState.fiberRefs !== void 0) {
        return u[symbolRedactable](redactableState.fiberRefs);
      }
      return u;
    };
  }
});

// node_modules/effect/dist/esm/Pipeable.js
var pipeArguments;
var init_Pipeable = __esm({
  "node_modules/effect/dist/esm/Pipeable.js"() {
    pipeArguments = (self, args2) => {
      switch (args2.length) {
        case 0:
          return self;
        case 1:
          return args2[0](self);
        case 2:
          return args2[1](args2[0](self));
        case 3:
          return args2[2](args2[1](args2[0](self)));
        case 4:
          return args2[3](args2[2](args2[1](args2[0](self))));
        case 5:
          return args2[4](args2[3](args2[2](args2[1](args2[0](self)))));
        case 6:
          return args2[5](args2[4](args2[3](args2[2](args2[1](args2[0](self))))));
        case 7:
          return args2[6](args2[5](args2[4](args2[3](args2[2](args2[1](args2[0](self)))))));
        case 8:
          return args2[7](args2[6](args2[5](args2[4](args2[3](args2[2](args2[1](args2[0](self))))))));
        case 9:
          return args2[8](args2[7](args2[6](args2[5](args2[4](args2[3](args2[2](args2[1](args2[0](self)))))))));
        default: {
          let ret = self;
          for (let i = 0, len = args2.length; i < len; i++) {
            ret = args2[i](ret);
          }
          return ret;
        }
      }
    };
  }
});

// node_modules/effect/dist/esm/internal/opCodes/effect.js
var OP_ASYNC, OP_COMMIT, OP_FAILURE, OP_ON_FAILURE, OP_ON_SUCCESS, OP_ON_SUCCESS_AND_FAILURE, OP_SUCCESS, OP_SYNC, OP_TAG, OP_UPDATE_RUNTIME_FLAGS, OP_WHILE, OP_ITERATOR, OP_WITH_RUNTIME, OP_YIELD, OP_REVERT_FLAGS;
var init_effect = __esm({
  "node_modules/effect/dist/esm/internal/opCodes/effect.js"() {
    OP_ASYNC = "Async";
    OP_COMMIT = "Commit";
    OP_FAILURE = "Failure";
    OP_ON_FAILURE = "OnFailure";
    OP_ON_SUCCESS = "OnSuccess";
    OP_ON_SUCCESS_AND_FAILURE = "OnSuccessAndFailure";
    OP_SUCCESS = "Success";
    OP_SYNC = "Sync";
    OP_TAG = "Tag";
    OP_UPDATE_RUNTIME_FLAGS = "UpdateRuntimeFlags";
    OP_WHILE = "While";
    OP_ITERATOR = "Iterator";
    OP_WITH_RUNTIME = "WithRuntime";
    OP_YIELD = "Yield";
    OP_REVERT_FLAGS = "RevertFlags";
  }
});

// node_modules/effect/dist/esm/internal/version.js
var moduleVersion, getCurrentVersion;
var init_version = __esm({
  "node_modules/effect/dist/esm/internal/version.js"() {
    moduleVersion = "3.22.4";
    getCurrentVersion = () => moduleVersion;
  }
});

// node_modules/effect/dist/esm/internal/effectable.js
var EffectTypeId, StreamTypeId, SinkTypeId, ChannelTypeId, effectVariance, sinkVariance, channelVariance, EffectPrototype, StructuralPrototype, CommitPrototype, StructuralCommitPrototype, Base;
var init_effectable = __esm({
  "node_modules/effect/dist/esm/internal/effectable.js"() {
    init_Equal();
    init_Hash();
    init_Pipeable();
    init_Utils();
    init_effect();
    init_version();
    EffectTypeId = /* @__PURE__ */ Symbol.for("effect/Effect");
    StreamTypeId = /* @__PURE__ */ Symbol.for("effect/Stream");
    SinkTypeId = /* @__PURE__ */ Symbol.for("effect/Sink");
    ChannelTypeId = /* @__PURE__ */ Symbol.for("effect/Channel");
    effectVariance = {
      /* c8 ignore next */
      _R: (_) => _,
      /* c8 ignore next */
      _E: (_) => _,
      /* c8 ignore next */
      _A: (_) => _,
      _V: /* @__PURE__ */ getCurrentVersion()
    };
    sinkVariance = {
      /* c8 ignore next */
      _A: (_) => _,
      /* c8 ignore next */
      _In: (_) => _,
      /* c8 ignore next */
      _L: (_) => _,
      /* c8 ignore next */
      _E: (_) => _,
      /* c8 ignore next */
      _R: (_) => _
    };
    channelVariance = {
      /* c8 ignore next */
      _Env: (_) => _,
      /* c8 ignore next */
      _InErr: (_) => _,
      /* c8 ignore next */
      _InElem: (_) => _,
      /* c8 ignore next */
      _InDone: (_) => _,
      /* c8 ignore next */
      _OutErr: (_) => _,
      /* c8 ignore next */
      _OutElem: (_) => _,
      /* c8 ignore next */
      _OutDone: (_) => _
    };
    EffectPrototype = {
      [EffectTypeId]: effectVariance,
      [StreamTypeId]: effectVariance,
      [SinkTypeId]: sinkVariance,
      [ChannelTypeId]: channelVariance,
      [symbol2](that) {
        return this === that;
      },
      [symbol]() {
        return cached(this, random(this));
      },
      [Symbol.iterator]() {
        return new SingleShotGen(new YieldWrap(this));
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    StructuralPrototype = {
      [symbol]() {
        return cached(this, structure(this));
      },
      [symbol2](that) {
        const selfKeys = Object.keys(this);
        const thatKeys = Object.keys(that);
        if (selfKeys.length !== thatKeys.length) {
          return false;
        }
        for (const key of selfKeys) {
          if (!(key in that && equals(this[key], that[key]))) {
            return false;
          }
        }
        return true;
      }
    };
    CommitPrototype = {
      ...EffectPrototype,
      _op: OP_COMMIT
    };
    StructuralCommitPrototype = {
      ...CommitPrototype,
      ...StructuralPrototype
    };
    Base = /* @__PURE__ */ (function() {
      function Base3() {
      }
      Base3.prototype = CommitPrototype;
      return Base3;
    })();
  }
});

// node_modules/effect/dist/esm/internal/option.js
var TypeId, CommonProto, SomeProto, NoneHash, NoneProto, isOption, isNone, isSome, none, some;
var init_option = __esm({
  "node_modules/effect/dist/esm/internal/option.js"() {
    init_Equal();
    init_Hash();
    init_Inspectable();
    init_Predicate();
    init_effectable();
    TypeId = /* @__PURE__ */ Symbol.for("effect/Option");
    CommonProto = {
      ...EffectPrototype,
      [TypeId]: {
        _A: (_) => _
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      toString() {
        return format(this.toJSON());
      }
    };
    SomeProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(CommonProto), {
      _tag: "Some",
      _op: "Some",
      [symbol2](that) {
        return isOption(that) && isSome(that) && equals(this.value, that.value);
      },
      [symbol]() {
        return cached(this, combine(hash(this._tag))(hash(this.value)));
      },
      toJSON() {
        return {
          _id: "Option",
          _tag: this._tag,
          value: toJSON(this.value)
        };
      }
    });
    NoneHash = /* @__PURE__ */ hash("None");
    NoneProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(CommonProto), {
      _tag: "None",
      _op: "None",
      [symbol2](that) {
        return isOption(that) && isNone(that);
      },
      [symbol]() {
        return NoneHash;
      },
      toJSON() {
        return {
          _id: "Option",
          _tag: this._tag
        };
      }
    });
    isOption = (input) => hasProperty(input, TypeId);
    isNone = (fa) => fa._tag === "None";
    isSome = (fa) => fa._tag === "Some";
    none = /* @__PURE__ */ Object.create(NoneProto);
    some = (value) => {
      const a = Object.create(SomeProto);
      a.value = value;
      return a;
    };
  }
});

// node_modules/effect/dist/esm/internal/either.js
var TypeId2, CommonProto2, RightProto, LeftProto, isEither, isLeft, isRight, left, right;
var init_either = __esm({
  "node_modules/effect/dist/esm/internal/either.js"() {
    init_Equal();
    init_Hash();
    init_Inspectable();
    init_Predicate();
    init_effectable();
    TypeId2 = /* @__PURE__ */ Symbol.for("effect/Either");
    CommonProto2 = {
      ...EffectPrototype,
      [TypeId2]: {
        _R: (_) => _
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      toString() {
        return format(this.toJSON());
      }
    };
    RightProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(CommonProto2), {
      _tag: "Right",
      _op: "Right",
      [symbol2](that) {
        return isEither(that) && isRight(that) && equals(this.right, that.right);
      },
      [symbol]() {
        return combine(hash(this._tag))(hash(this.right));
      },
      toJSON() {
        return {
          _id: "Either",
          _tag: this._tag,
          right: toJSON(this.right)
        };
      }
    });
    LeftProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(CommonProto2), {
      _tag: "Left",
      _op: "Left",
      [symbol2](that) {
        return isEither(that) && isLeft(that) && equals(this.left, that.left);
      },
      [symbol]() {
        return combine(hash(this._tag))(hash(this.left));
      },
      toJSON() {
        return {
          _id: "Either",
          _tag: this._tag,
          left: toJSON(this.left)
        };
      }
    });
    isEither = (input) => hasProperty(input, TypeId2);
    isLeft = (ma) => ma._tag === "Left";
    isRight = (ma) => ma._tag === "Right";
    left = (left3) => {
      const a = Object.create(LeftProto);
      a.left = left3;
      return a;
    };
    right = (right3) => {
      const a = Object.create(RightProto);
      a.right = right3;
      return a;
    };
  }
});

// node_modules/effect/dist/esm/Either.js
var right2, left2, isLeft2, isRight2, match, merge;
var init_Either = __esm({
  "node_modules/effect/dist/esm/Either.js"() {
    init_Function();
    init_either();
    right2 = right;
    left2 = left;
    isLeft2 = isLeft;
    isRight2 = isRight;
    match = /* @__PURE__ */ dual(2, (self, {
      onLeft,
      onRight
    }) => isLeft2(self) ? onLeft(self.left) : onRight(self.right));
    merge = /* @__PURE__ */ match({
      onLeft: identity,
      onRight: identity
    });
  }
});

// node_modules/effect/dist/esm/internal/array.js
var isNonEmptyArray;
var init_array = __esm({
  "node_modules/effect/dist/esm/internal/array.js"() {
    isNonEmptyArray = (self) => self.length > 0;
  }
});

// node_modules/effect/dist/esm/Order.js
var make2, number2, mapInput2, greaterThan;
var init_Order = __esm({
  "node_modules/effect/dist/esm/Order.js"() {
    init_Function();
    make2 = (compare) => (self, that) => self === that ? 0 : compare(self, that);
    number2 = /* @__PURE__ */ make2((self, that) => self < that ? -1 : 1);
    mapInput2 = /* @__PURE__ */ dual(2, (self, f) => make2((b1, b2) => self(f(b1), f(b2))));
    greaterThan = (O) => dual(2, (self, that) => O(self, that) === 1);
  }
});

// node_modules/effect/dist/esm/Option.js
var none2, some2, isNone2, isSome2, match2, getOrElse, orElseSome, fromNullable, getOrUndefined, map, flatMap, containsWith, _equivalence, contains;
var init_Option = __esm({
  "node_modules/effect/dist/esm/Option.js"() {
    init_Equal();
    init_Function();
    init_option();
    none2 = () => none;
    some2 = some;
    isNone2 = isNone;
    isSome2 = isSome;
    match2 = /* @__PURE__ */ dual(2, (self, {
      onNone,
      onSome
    }) => isNone2(self) ? onNone() : onSome(self.value));
    getOrElse = /* @__PURE__ */ dual(2, (self, onNone) => isNone2(self) ? onNone() : self.value);
    orElseSome = /* @__PURE__ */ dual(2, (self, onNone) => isNone2(self) ? some2(onNone()) : self);
    fromNullable = (nullableValue) => nullableValue == null ? none2() : some2(nullableValue);
    getOrUndefined = /* @__PURE__ */ getOrElse(constUndefined);
    map = /* @__PURE__ */ dual(2, (self, f) => isNone2(self) ? none2() : some2(f(self.value)));
    flatMap = /* @__PURE__ */ dual(2, (self, f) => isNone2(self) ? none2() : f(self.value));
    containsWith = (isEquivalent) => dual(2, (self, a) => isNone2(self) ? false : isEquivalent(self.value, a));
    _equivalence = /* @__PURE__ */ equivalence();
    contains = /* @__PURE__ */ containsWith(_equivalence);
  }
});

// node_modules/effect/dist/esm/Tuple.js
var make3;
var init_Tuple = __esm({
  "node_modules/effect/dist/esm/Tuple.js"() {
    make3 = (...elements) => elements;
  }
});

// node_modules/effect/dist/esm/Array.js
var allocate, makeBy, fromIterable, ensure, prepend, append, appendAll, isEmptyArray, isEmptyReadonlyArray, isNonEmptyArray2, isNonEmptyReadonlyArray, isOutOfBounds, clamp, get, unsafeGet, head, headNonEmpty, last, lastNonEmpty, tailNonEmpty, spanIndex, span, drop, reverse, sort, zip, zipWith, _equivalence2, splitAt, splitNonEmptyAt, copy, unionWith, union, empty, of, map2, flatMap2, flatten, reduce, unfold, getEquivalence, dedupeWith, dedupe, join;
var init_Array = __esm({
  "node_modules/effect/dist/esm/Array.js"() {
    init_Equal();
    init_Equivalence();
    init_Function();
    init_array();
    init_Option();
    init_Tuple();
    allocate = (n) => new Array(n);
    makeBy = /* @__PURE__ */ dual(2, (n, f) => {
      const max2 = Math.max(1, Math.floor(n));
      const out = new Array(max2);
      for (let i = 0; i < max2; i++) {
        out[i] = f(i);
      }
      return out;
    });
    fromIterable = (collection) => Array.isArray(collection) ? collection : Array.from(collection);
    ensure = (self) => Array.isArray(self) ? self : [self];
    prepend = /* @__PURE__ */ dual(2, (self, head4) => [head4, ...self]);
    append = /* @__PURE__ */ dual(2, (self, last3) => [...self, last3]);
    appendAll = /* @__PURE__ */ dual(2, (self, that) => fromIterable(self).concat(fromIterable(that)));
    isEmptyArray = (self) => self.length === 0;
    isEmptyReadonlyArray = isEmptyArray;
    isNonEmptyArray2 = isNonEmptyArray;
    isNonEmptyReadonlyArray = isNonEmptyArray;
    isOutOfBounds = (i, as3) => i < 0 || i >= as3.length;
    clamp = (i, as3) => Math.floor(Math.min(Math.max(0, i), as3.length));
    get = /* @__PURE__ */ dual(2, (self, index) => {
      const i = Math.floor(index);
      return isOutOfBounds(i, self) ? none2() : some2(self[i]);
    });
    unsafeGet = /* @__PURE__ */ dual(2, (self, index) => {
      const i = Math.floor(index);
      if (isOutOfBounds(i, self)) {
        throw new Error(`Index ${i} out of bounds`);
      }
      return self[i];
    });
    head = /* @__PURE__ */ get(0);
    headNonEmpty = /* @__PURE__ */ unsafeGet(0);
    last = (self) => isNonEmptyReadonlyArray(self) ? some2(lastNonEmpty(self)) : none2();
    lastNonEmpty = (self) => self[self.length - 1];
    tailNonEmpty = (self) => self.slice(1);
    spanIndex = (self, predicate) => {
      let i = 0;
      for (const a of self) {
        if (!predicate(a, i)) {
          break;
        }
        i++;
      }
      return i;
    };
    span = /* @__PURE__ */ dual(2, (self, predicate) => splitAt(self, spanIndex(self, predicate)));
    drop = /* @__PURE__ */ dual(2, (self, n) => {
      const input = fromIterable(self);
      return input.slice(clamp(n, input), input.length);
    });
    reverse = (self) => Array.from(self).reverse();
    sort = /* @__PURE__ */ dual(2, (self, O) => {
      const out = Array.from(self);
      out.sort(O);
      return out;
    });
    zip = /* @__PURE__ */ dual(2, (self, that) => zipWith(self, that, make3));
    zipWith = /* @__PURE__ */ dual(3, (self, that, f) => {
      const as3 = fromIterable(self);
      const bs = fromIterable(that);
      if (isNonEmptyReadonlyArray(as3) && isNonEmptyReadonlyArray(bs)) {
        const out = [f(headNonEmpty(as3), headNonEmpty(bs))];
        const len = Math.min(as3.length, bs.length);
        for (let i = 1; i < len; i++) {
          out[i] = f(as3[i], bs[i]);
        }
        return out;
      }
      return [];
    });
    _equivalence2 = /* @__PURE__ */ equivalence();
    splitAt = /* @__PURE__ */ dual(2, (self, n) => {
      const input = Array.from(self);
      const _n = Math.floor(n);
      if (isNonEmptyReadonlyArray(input)) {
        if (_n >= 1) {
          return splitNonEmptyAt(input, _n);
        }
        return [[], input];
      }
      return [input, []];
    });
    splitNonEmptyAt = /* @__PURE__ */ dual(2, (self, n) => {
      const _n = Math.max(1, Math.floor(n));
      return _n >= self.length ? [copy(self), []] : [prepend(self.slice(1, _n), headNonEmpty(self)), self.slice(_n)];
    });
    copy = (self) => self.slice();
    unionWith = /* @__PURE__ */ dual(3, (self, that, isEquivalent) => {
      const a = fromIterable(self);
      const b = fromIterable(that);
      if (isNonEmptyReadonlyArray(a)) {
        if (isNonEmptyReadonlyArray(b)) {
          const dedupe2 = dedupeWith(isEquivalent);
          return dedupe2(appendAll(a, b));
        }
        return a;
      }
      return b;
    });
    union = /* @__PURE__ */ dual(2, (self, that) => unionWith(self, that, _equivalence2));
    empty = () => [];
    of = (a) => [a];
    map2 = /* @__PURE__ */ dual(2, (self, f) => self.map(f));
    flatMap2 = /* @__PURE__ */ dual(2, (self, f) => {
      if (isEmptyReadonlyArray(self)) {
        return [];
      }
      const out = [];
      for (let i = 0; i < self.length; i++) {
        const inner = f(self[i], i);
        for (let j = 0; j < inner.length; j++) {
          out.push(inner[j]);
        }
      }
      return out;
    });
    flatten = /* @__PURE__ */ flatMap2(identity);
    reduce = /* @__PURE__ */ dual(3, (self, b, f) => fromIterable(self).reduce((b2, a, i) => f(b2, a, i), b));
    unfold = (b, f) => {
      const out = [];
      let next = b;
      let o;
      while (isSome2(o = f(next))) {
        const [a, b2] = o.value;
        out.push(a);
        next = b2;
      }
      return out;
    };
    getEquivalence = array;
    dedupeWith = /* @__PURE__ */ dual(2, (self, isEquivalent) => {
      const input = fromIterable(self);
      if (isNonEmptyReadonlyArray(input)) {
        const out = [headNonEmpty(input)];
        const rest = tailNonEmpty(input);
        for (const r of rest) {
          if (out.every((a) => !isEquivalent(r, a))) {
            out.push(r);
          }
        }
        return out;
      }
      return [];
    });
    dedupe = (self) => dedupeWith(self, equivalence());
    join = /* @__PURE__ */ dual(2, (self, sep) => fromIterable(self).join(sep));
  }
});

// node_modules/effect/dist/esm/Chunk.js
function copy2(src, srcPos, dest, destPos, len) {
  for (let i = srcPos; i < Math.min(src.length, srcPos + len); i++) {
    dest[destPos + i - srcPos] = src[i];
  }
  return dest;
}
var TypeId3, emptyArray, getEquivalence2, _equivalence3, ChunkProto, makeChunk, isChunk, _empty, empty2, make4, of2, fromIterable2, copyToArray, toReadonlyArray_, toReadonlyArray, reverseChunk, reverse2, unsafeFromArray, unsafeFromNonEmptyArray, unsafeGet2, append2, prepend2, drop2, appendAll2, isEmpty, isNonEmpty, unsafeHead, headNonEmpty2, tailNonEmpty2;
var init_Chunk = __esm({
  "node_modules/effect/dist/esm/Chunk.js"() {
    init_Array();
    init_Equal();
    init_Equivalence();
    init_Function();
    init_Hash();
    init_Inspectable();
    init_Pipeable();
    init_Predicate();
    TypeId3 = /* @__PURE__ */ Symbol.for("effect/Chunk");
    emptyArray = [];
    getEquivalence2 = (isEquivalent) => make((self, that) => self.length === that.length && toReadonlyArray(self).every((value, i) => isEquivalent(value, unsafeGet2(that, i))));
    _equivalence3 = /* @__PURE__ */ getEquivalence2(equals);
    ChunkProto = {
      [TypeId3]: {
        _A: (_) => _
      },
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "Chunk",
          values: toReadonlyArray(this).map(toJSON)
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      [symbol2](that) {
        return isChunk(that) && _equivalence3(this, that);
      },
      [symbol]() {
        return cached(this, array2(toReadonlyArray(this)));
      },
      [Symbol.iterator]() {
        switch (this.backing._tag) {
          case "IArray": {
            return this.backing.array[Symbol.iterator]();
          }
          case "IEmpty": {
            return emptyArray[Symbol.iterator]();
          }
          default: {
            return toReadonlyArray(this)[Symbol.iterator]();
          }
        }
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    makeChunk = (backing) => {
      const chunk2 = Object.create(ChunkProto);
      chunk2.backing = backing;
      switch (backing._tag) {
        case "IEmpty": {
          chunk2.length = 0;
          chunk2.depth = 0;
          chunk2.left = chunk2;
          chunk2.right = chunk2;
          break;
        }
        case "IConcat": {
          chunk2.length = backing.left.length + backing.right.length;
          chunk2.depth = 1 + Math.max(backing.left.depth, backing.right.depth);
          chunk2.left = backing.left;
          chunk2.right = backing.right;
          break;
        }
        case "IArray": {
          chunk2.length = backing.array.length;
          chunk2.depth = 0;
          chunk2.left = _empty;
          chunk2.right = _empty;
          break;
        }
        case "ISingleton": {
          chunk2.length = 1;
          chunk2.depth = 0;
          chunk2.left = _empty;
          chunk2.right = _empty;
          break;
        }
        case "ISlice": {
          chunk2.length = backing.length;
          chunk2.depth = backing.chunk.depth + 1;
          chunk2.left = _empty;
          chunk2.right = _empty;
          break;
        }
      }
      return chunk2;
    };
    isChunk = (u) => hasProperty(u, TypeId3);
    _empty = /* @__PURE__ */ makeChunk({
      _tag: "IEmpty"
    });
    empty2 = () => _empty;
    make4 = (...as3) => unsafeFromNonEmptyArray(as3);
    of2 = (a) => makeChunk({
      _tag: "ISingleton",
      a
    });
    fromIterable2 = (self) => isChunk(self) ? self : unsafeFromArray(fromIterable(self));
    copyToArray = (self, array3, initial) => {
      switch (self.backing._tag) {
        case "IArray": {
          copy2(self.backing.array, 0, array3, initial, self.length);
          break;
        }
        case "IConcat": {
          copyToArray(self.left, array3, initial);
          copyToArray(self.right, array3, initial + self.left.length);
          break;
        }
        case "ISingleton": {
          array3[initial] = self.backing.a;
          break;
        }
        case "ISlice": {
          let i = 0;
          let j = initial;
          while (i < self.length) {
            array3[j] = unsafeGet2(self, i);
            i += 1;
            j += 1;
          }
          break;
        }
      }
    };
    toReadonlyArray_ = (self) => {
      switch (self.backing._tag) {
        case "IEmpty": {
          return emptyArray;
        }
        case "IArray": {
          return self.backing.array;
        }
        default: {
          const arr = new Array(self.length);
          copyToArray(self, arr, 0);
          self.backing = {
            _tag: "IArray",
            array: arr
          };
          self.left = _empty;
          self.right = _empty;
          self.depth = 0;
          return arr;
        }
      }
    };
    toReadonlyArray = toReadonlyArray_;
    reverseChunk = (self) => {
      switch (self.backing._tag) {
        case "IEmpty":
        case "ISingleton":
          return self;
        case "IArray": {
          return makeChunk({
            _tag: "IArray",
            array: reverse(self.backing.array)
          });
        }
        case "IConcat": {
          return makeChunk({
            _tag: "IConcat",
            left: reverse2(self.backing.right),
            right: reverse2(self.backing.left)
          });
        }
        case "ISlice":
          return unsafeFromArray(reverse(toReadonlyArray(self)));
      }
    };
    reverse2 = reverseChunk;
    unsafeFromArray = (self) => self.length === 0 ? empty2() : self.length === 1 ? of2(self[0]) : makeChunk({
      _tag: "IArray",
      array: self
    });
    unsafeFromNonEmptyArray = (self) => unsafeFromArray(self);
    unsafeGet2 = /* @__PURE__ */ dual(2, (self, index) => {
      switch (self.backing._tag) {
        case "IEmpty": {
          throw new Error(`Index out of bounds`);
        }
        case "ISingleton": {
          if (index !== 0) {
            throw new Error(`Index out of bounds`);
          }
          return self.backing.a;
        }
        case "IArray": {
          if (index >= self.length || index < 0) {
            throw new Error(`Index out of bounds`);
          }
          return self.backing.array[index];
        }
        case "IConcat": {
          return index < self.left.length ? unsafeGet2(self.left, index) : unsafeGet2(self.right, index - self.left.length);
        }
        case "ISlice": {
          return unsafeGet2(self.backing.chunk, index + self.backing.offset);
        }
      }
    });
    append2 = /* @__PURE__ */ dual(2, (self, a) => appendAll2(self, of2(a)));
    prepend2 = /* @__PURE__ */ dual(2, (self, elem) => appendAll2(of2(elem), self));
    drop2 = /* @__PURE__ */ dual(2, (self, n) => {
      if (n <= 0) {
        return self;
      } else if (n >= self.length) {
        return _empty;
      } else {
        switch (self.backing._tag) {
          case "ISlice": {
            return makeChunk({
              _tag: "ISlice",
              chunk: self.backing.chunk,
              offset: self.backing.offset + n,
              length: self.backing.length - n
            });
          }
          case "IConcat": {
            if (n > self.left.length) {
              return drop2(self.right, n - self.left.length);
            }
            return makeChunk({
              _tag: "IConcat",
              left: drop2(self.left, n),
              right: self.right
            });
          }
          default: {
            return makeChunk({
              _tag: "ISlice",
              chunk: self,
              offset: n,
              length: self.length - n
            });
          }
        }
      }
    });
    appendAll2 = /* @__PURE__ */ dual(2, (self, that) => {
      if (self.backing._tag === "IEmpty") {
        return that;
      }
      if (that.backing._tag === "IEmpty") {
        return self;
      }
      const diff8 = that.depth - self.depth;
      if (Math.abs(diff8) <= 1) {
        return makeChunk({
          _tag: "IConcat",
          left: self,
          right: that
        });
      } else if (diff8 < -1) {
        if (self.left.depth >= self.right.depth) {
          const nr = appendAll2(self.right, that);
          return makeChunk({
            _tag: "IConcat",
            left: self.left,
            right: nr
          });
        } else {
          const nrr = appendAll2(self.right.right, that);
          if (nrr.depth === self.depth - 3) {
            const nr = makeChunk({
              _tag: "IConcat",
              left: self.right.left,
              right: nrr
            });
            return makeChunk({
              _tag: "IConcat",
              left: self.left,
              right: nr
            });
          } else {
            const nl = makeChunk({
              _tag: "IConcat",
              left: self.left,
              right: self.right.left
            });
            return makeChunk({
              _tag: "IConcat",
              left: nl,
              right: nrr
            });
          }
        }
      } else {
        if (that.right.depth >= that.left.depth) {
          const nl = appendAll2(self, that.left);
          return makeChunk({
            _tag: "IConcat",
            left: nl,
            right: that.right
          });
        } else {
          const nll = appendAll2(self, that.left.left);
          if (nll.depth === that.depth - 3) {
            const nl = makeChunk({
              _tag: "IConcat",
              left: nll,
              right: that.left.right
            });
            return makeChunk({
              _tag: "IConcat",
              left: nl,
              right: that.right
            });
          } else {
            const nr = makeChunk({
              _tag: "IConcat",
              left: that.left.right,
              right: that.right
            });
            return makeChunk({
              _tag: "IConcat",
              left: nll,
              right: nr
            });
          }
        }
      }
    });
    isEmpty = (self) => self.length === 0;
    isNonEmpty = (self) => self.length > 0;
    unsafeHead = (self) => unsafeGet2(self, 0);
    headNonEmpty2 = unsafeHead;
    tailNonEmpty2 = (self) => drop2(self, 1);
  }
});

// node_modules/effect/dist/esm/internal/hashMap/config.js
var SIZE, BUCKET_SIZE, MASK, MAX_INDEX_NODE, MIN_ARRAY_NODE;
var init_config = __esm({
  "node_modules/effect/dist/esm/internal/hashMap/config.js"() {
    SIZE = 5;
    BUCKET_SIZE = /* @__PURE__ */ Math.pow(2, SIZE);
    MASK = BUCKET_SIZE - 1;
    MAX_INDEX_NODE = BUCKET_SIZE / 2;
    MIN_ARRAY_NODE = BUCKET_SIZE / 4;
  }
});

// node_modules/effect/dist/esm/internal/hashMap/bitwise.js
function popcount(x) {
  x -= x >> 1 & 1431655765;
  x = (x & 858993459) + (x >> 2 & 858993459);
  x = x + (x >> 4) & 252645135;
  x += x >> 8;
  x += x >> 16;
  return x & 127;
}
function hashFragment(shift, h) {
  return h >>> shift & MASK;
}
function toBitmap(x) {
  return 1 << x;
}
function fromBitmap(bitmap, bit) {
  return popcount(bitmap & bit - 1);
}
var init_bitwise = __esm({
  "node_modules/effect/dist/esm/internal/hashMap/bitwise.js"() {
    init_config();
  }
});

// node_modules/effect/dist/esm/internal/stack.js
var make5;
var init_stack = __esm({
  "node_modules/effect/dist/esm/internal/stack.js"() {
    make5 = (value, previous) => ({
      value,
      previous
    });
  }
});

// node_modules/effect/dist/esm/internal/hashMap/array.js
function arrayUpdate(mutate3, at, v, arr) {
  let out = arr;
  if (!mutate3) {
    const len = arr.length;
    out = new Array(len);
    for (let i = 0; i < len; ++i) out[i] = arr[i];
  }
  out[at] = v;
  return out;
}
function arraySpliceOut(mutate3, at, arr) {
  const newLen = arr.length - 1;
  let i = 0;
  let g = 0;
  let out = arr;
  if (mutate3) {
    i = g = at;
  } else {
    out = new Array(newLen);
    while (i < at) out[g++] = arr[i++];
  }
  ++i;
  while (i <= newLen) out[g++] = arr[i++];
  if (mutate3) {
    out.length = newLen;
  }
  return out;
}
function arraySpliceIn(mutate3, at, v, arr) {
  const len = arr.length;
  if (mutate3) {
    let i2 = len;
    while (i2 >= at) arr[i2--] = arr[i2];
    arr[at] = v;
    return arr;
  }
  let i = 0, g = 0;
  const out = new Array(len + 1);
  while (i < at) out[g++] = arr[i++];
  out[at] = v;
  while (i < len) out[++g] = arr[i++];
  return out;
}
var init_array2 = __esm({
  "node_modules/effect/dist/esm/internal/hashMap/array.js"() {
  }
});

// node_modules/effect/dist/esm/internal/hashMap/node.js
function isEmptyNode(a) {
  return isTagged(a, "EmptyNode");
}
function isLeafNode(node2) {
  return isEmptyNode(node2) || node2._tag === "LeafNode" || node2._tag === "CollisionNode";
}
function canEditNode(node2, edit) {
  return isEmptyNode(node2) ? false : edit === node2.edit;
}
function pack(edit, count, removed, elements) {
  const children = new Array(count - 1);
  let g = 0;
  let bitmap = 0;
  for (let i = 0, len = elements.length; i < len; ++i) {
    if (i !== removed) {
      const elem = elements[i];
      if (elem && !isEmptyNode(elem)) {
        children[g++] = elem;
        bitmap |= 1 << i;
      }
    }
  }
  return new IndexedNode(edit, bitmap, children);
}
function expand(edit, frag, child, bitmap, subNodes) {
  const arr = [];
  let bit = bitmap;
  let count = 0;
  for (let i = 0; bit; ++i) {
    if (bit & 1) arr[i] = subNodes[count++];
    bit >>>= 1;
  }
  arr[frag] = child;
  return new ArrayNode(edit, count + 1, arr);
}
function mergeLeavesInner(edit, shift, h1, n1, h2, n2) {
  if (h1 === h2) return new CollisionNode(edit, h1, [n2, n1]);
  const subH1 = hashFragment(shift, h1);
  const subH2 = hashFragment(shift, h2);
  if (subH1 === subH2) {
    return (child) => new IndexedNode(edit, toBitmap(subH1) | toBitmap(subH2), [child]);
  } else {
    const children = subH1 < subH2 ? [n1, n2] : [n2, n1];
    return new IndexedNode(edit, toBitmap(subH1) | toBitmap(subH2), children);
  }
}
function mergeLeaves(edit, shift, h1, n1, h2, n2) {
  let stack = void 0;
  let currentShift = shift;
  while (true) {
    const res = mergeLeavesInner(edit, currentShift, h1, n1, h2, n2);
    if (typeof res === "function") {
      stack = make5(res, stack);
      currentShift = currentShift + SIZE;
    } else {
      let final = res;
      while (stack != null) {
        final = stack.value(final);
        stack = stack.previous;
      }
      return final;
    }
  }
}
var EmptyNode, LeafNode, CollisionNode, IndexedNode, ArrayNode;
var init_node = __esm({
  "node_modules/effect/dist/esm/internal/hashMap/node.js"() {
    init_Equal();
    init_Option();
    init_Predicate();
    init_stack();
    init_array2();
    init_bitwise();
    init_config();
    EmptyNode = class _EmptyNode {
      _tag = "EmptyNode";
      modify(edit, _shift, f, hash2, key, size6) {
        const v = f(none2());
        if (isNone2(v)) return new _EmptyNode();
        ++size6.value;
        return new LeafNode(edit, hash2, key, v);
      }
    };
    LeafNode = class _LeafNode {
      edit;
      hash;
      key;
      value;
      _tag = "LeafNode";
      constructor(edit, hash2, key, value) {
        this.edit = edit;
        this.hash = hash2;
        this.key = key;
        this.value = value;
      }
      modify(edit, shift, f, hash2, key, size6) {
        if (equals(key, this.key)) {
          const v2 = f(this.value);
          if (v2 === this.value) return this;
          else if (isNone2(v2)) {
            --size6.value;
            return new EmptyNode();
          }
          if (canEditNode(this, edit)) {
            this.value = v2;
            return this;
          }
          return new _LeafNode(edit, hash2, key, v2);
        }
        const v = f(none2());
        if (isNone2(v)) return this;
        ++size6.value;
        return mergeLeaves(edit, shift, this.hash, this, hash2, new _LeafNode(edit, hash2, key, v));
      }
    };
    CollisionNode = class _CollisionNode {
      edit;
      hash;
      children;
      _tag = "CollisionNode";
      constructor(edit, hash2, children) {
        this.edit = edit;
        this.hash = hash2;
        this.children = children;
      }
      modify(edit, shift, f, hash2, key, size6) {
        if (hash2 === this.hash) {
          const canEdit = canEditNode(this, edit);
          const list = this.updateCollisionList(canEdit, edit, this.hash, this.children, f, key, size6);
          if (list === this.children) return this;
          return list.length > 1 ? new _CollisionNode(edit, this.hash, list) : list[0];
        }
        const v = f(none2());
        if (isNone2(v)) return this;
        ++size6.value;
        return mergeLeaves(edit, shift, this.hash, this, hash2, new LeafNode(edit, hash2, key, v));
      }
      updateCollisionList(mutate3, edit, hash2, list, f, key, size6) {
        const len = list.length;
        for (let i = 0; i < len; ++i) {
          const child = list[i];
          if ("key" in child && equals(key, child.key)) {
            const value = child.value;
            const newValue2 = f(value);
            if (newValue2 === value) return list;
            if (isNone2(newValue2)) {
              --size6.value;
              return arraySpliceOut(mutate3, i, list);
            }
            return arrayUpdate(mutate3, i, new LeafNode(edit, hash2, key, newValue2), list);
          }
        }
        const newValue = f(none2());
        if (isNone2(newValue)) return list;
        ++size6.value;
        return arrayUpdate(mutate3, len, new LeafNode(edit, hash2, key, newValue), list);
      }
    };
    IndexedNode = class _IndexedNode {
      edit;
      mask;
      children;
      _tag = "IndexedNode";
      constructor(edit, mask, children) {
        this.edit = edit;
        this.mask = mask;
        this.children = children;
      }
      modify(edit, shift, f, hash2, key, size6) {
        const mask = this.mask;
        const children = this.children;
        const frag = hashFragment(shift, hash2);
        const bit = toBitmap(frag);
        const indx = fromBitmap(mask, bit);
        const exists = mask & bit;
        const canEdit = canEditNode(this, edit);
        if (!exists) {
          const _newChild = new EmptyNode().modify(edit, shift + SIZE, f, hash2, key, size6);
          if (!_newChild) return this;
          return children.length >= MAX_INDEX_NODE ? expand(edit, frag, _newChild, mask, children) : new _IndexedNode(edit, mask | bit, arraySpliceIn(canEdit, indx, _newChild, children));
        }
        const current = children[indx];
        const child = current.modify(edit, shift + SIZE, f, hash2, key, size6);
        if (current === child) return this;
        let bitmap = mask;
        let newChildren;
        if (isEmptyNode(child)) {
          bitmap &= ~bit;
          if (!bitmap) return new EmptyNode();
          if (children.length <= 2 && isLeafNode(children[indx ^ 1])) {
            return children[indx ^ 1];
          }
          newChildren = arraySpliceOut(canEdit, indx, children);
        } else {
          newChildren = arrayUpdate(canEdit, indx, child, children);
        }
        if (canEdit) {
          this.mask = bitmap;
          this.children = newChildren;
          return this;
        }
        return new _IndexedNode(edit, bitmap, newChildren);
      }
    };
    ArrayNode = class _ArrayNode {
      edit;
      size;
      children;
      _tag = "ArrayNode";
      constructor(edit, size6, children) {
        this.edit = edit;
        this.size = size6;
        this.children = children;
      }
      modify(edit, shift, f, hash2, key, size6) {
        let count = this.size;
        const children = this.children;
        const frag = hashFragment(shift, hash2);
        const child = children[frag];
        const newChild = (child || new EmptyNode()).modify(edit, shift + SIZE, f, hash2, key, size6);
        if (child === newChild) return this;
        const canEdit = canEditNode(this, edit);
        let newChildren;
        if (isEmptyNode(child) && !isEmptyNode(newChild)) {
          ++count;
          newChildren = arrayUpdate(canEdit, frag, newChild, children);
        } else if (!isEmptyNode(child) && isEmptyNode(newChild)) {
          --count;
          if (count <= MIN_ARRAY_NODE) {
            return pack(edit, count, frag, children);
          }
          newChildren = arrayUpdate(canEdit, frag, new EmptyNode(), children);
        } else {
          newChildren = arrayUpdate(canEdit, frag, newChild, children);
        }
        if (canEdit) {
          this.size = count;
          this.children = newChildren;
          return this;
        }
        return new _ArrayNode(edit, count, newChildren);
      }
    };
  }
});

// node_modules/effect/dist/esm/internal/hashMap.js
var HashMapSymbolKey, HashMapTypeId, HashMapProto, makeImpl, HashMapIterator, applyCont, visitLazy, visitLazyChildren, _empty2, empty3, fromIterable3, isHashMap, isEmpty2, get2, getHash, has, set, setTree, keys, size, beginMutation, endMutation, modifyAt, modifyHash, remove2, map3, forEach, reduce2;
var init_hashMap = __esm({
  "node_modules/effect/dist/esm/internal/hashMap.js"() {
    init_Equal();
    init_Function();
    init_Function();
    init_Hash();
    init_Inspectable();
    init_Option();
    init_Pipeable();
    init_Predicate();
    init_bitwise();
    init_config();
    init_node();
    HashMapSymbolKey = "effect/HashMap";
    HashMapTypeId = /* @__PURE__ */ Symbol.for(HashMapSymbolKey);
    HashMapProto = {
      [HashMapTypeId]: HashMapTypeId,
      [Symbol.iterator]() {
        return new HashMapIterator(this, (k, v) => [k, v]);
      },
      [symbol]() {
        let hash2 = hash(HashMapSymbolKey);
        for (const item of this) {
          hash2 ^= pipe(hash(item[0]), combine(hash(item[1])));
        }
        return cached(this, hash2);
      },
      [symbol2](that) {
        if (isHashMap(that)) {
          if (that._size !== this._size) {
            return false;
          }
          for (const item of this) {
            const elem = pipe(that, getHash(item[0], hash(item[0])));
            if (isNone2(elem)) {
              return false;
            } else {
              if (!equals(item[1], elem.value)) {
                return false;
              }
            }
          }
          return true;
        }
        return false;
      },
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "HashMap",
          values: Array.from(this).map(toJSON)
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    makeImpl = (editable, edit, root, size6) => {
      const map10 = Object.create(HashMapProto);
      map10._editable = editable;
      map10._edit = edit;
      map10._root = root;
      map10._size = size6;
      return map10;
    };
    HashMapIterator = class _HashMapIterator {
      map;
      f;
      v;
      constructor(map10, f) {
        this.map = map10;
        this.f = f;
        this.v = visitLazy(this.map._root, this.f, void 0);
      }
      next() {
        if (isNone2(this.v)) {
          return {
            done: true,
            value: void 0
          };
        }
        const v0 = this.v.value;
        this.v = applyCont(v0.cont);
        return {
          done: false,
          value: v0.value
        };
      }
      [Symbol.iterator]() {
        return new _HashMapIterator(this.map, this.f);
      }
    };
    applyCont = (cont) => cont ? visitLazyChildren(cont[0], cont[1], cont[2], cont[3], cont[4]) : none2();
    visitLazy = (node2, f, cont = void 0) => {
      switch (node2._tag) {
        case "LeafNode": {
          if (isSome2(node2.value)) {
            return some2({
              value: f(node2.key, node2.value.value),
              cont
            });
          }
          return applyCont(cont);
        }
        case "CollisionNode":
        case "ArrayNode":
        case "IndexedNode": {
          const children = node2.children;
          return visitLazyChildren(children.length, children, 0, f, cont);
        }
        default: {
          return applyCont(cont);
        }
      }
    };
    visitLazyChildren = (len, children, i, f, cont) => {
      while (i < len) {
        const child = children[i++];
        if (child && !isEmptyNode(child)) {
          return visitLazy(child, f, [len, children, i, f, cont]);
        }
      }
      return applyCont(cont);
    };
    _empty2 = /* @__PURE__ */ makeImpl(false, 0, /* @__PURE__ */ new EmptyNode(), 0);
    empty3 = () => _empty2;
    fromIterable3 = (entries2) => {
      const map10 = beginMutation(empty3());
      for (const entry of entries2) {
        set(map10, entry[0], entry[1]);
      }
      return endMutation(map10);
    };
    isHashMap = (u) => hasProperty(u, HashMapTypeId);
    isEmpty2 = (self) => self && isEmptyNode(self._root);
    get2 = /* @__PURE__ */ dual(2, (self, key) => getHash(self, key, hash(key)));
    getHash = /* @__PURE__ */ dual(3, (self, key, hash2) => {
      let node2 = self._root;
      let shift = 0;
      while (true) {
        switch (node2._tag) {
          case "LeafNode": {
            return equals(key, node2.key) ? node2.value : none2();
          }
          case "CollisionNode": {
            if (hash2 === node2.hash) {
              const children = node2.children;
              for (let i = 0, len = children.length; i < len; ++i) {
                const child = children[i];
                if ("key" in child && equals(key, child.key)) {
                  return child.value;
                }
              }
            }
            return none2();
          }
          case "IndexedNode": {
            const frag = hashFragment(shift, hash2);
            const bit = toBitmap(frag);
            if (node2.mask & bit) {
              node2 = node2.children[fromBitmap(node2.mask, bit)];
              shift += SIZE;
              break;
            }
            return none2();
          }
          case "ArrayNode": {
            node2 = node2.children[hashFragment(shift, hash2)];
            if (node2) {
              shift += SIZE;
              break;
            }
            return none2();
          }
          default:
            return none2();
        }
      }
    });
    has = /* @__PURE__ */ dual(2, (self, key) => isSome2(getHash(self, key, hash(key))));
    set = /* @__PURE__ */ dual(3, (self, key, value) => modifyAt(self, key, () => some2(value)));
    setTree = /* @__PURE__ */ dual(3, (self, newRoot, newSize) => {
      if (self._editable) {
        ;
        self._root = newRoot;
        self._size = newSize;
        return self;
      }
      return newRoot === self._root ? self : makeImpl(self._editable, self._edit, newRoot, newSize);
    });
    keys = (self) => new HashMapIterator(self, (key) => key);
    size = (self) => self._size;
    beginMutation = (self) => makeImpl(true, self._edit + 1, self._root, self._size);
    endMutation = (self) => {
      ;
      self._editable = false;
      return self;
    };
    modifyAt = /* @__PURE__ */ dual(3, (self, key, f) => modifyHash(self, key, hash(key), f));
    modifyHash = /* @__PURE__ */ dual(4, (self, key, hash2, f) => {
      const size6 = {
        value: self._size
      };
      const newRoot = self._root.modify(self._editable ? self._edit : NaN, 0, f, hash2, key, size6);
      return pipe(self, setTree(newRoot, size6.value));
    });
    remove2 = /* @__PURE__ */ dual(2, (self, key) => modifyAt(self, key, none2));
    map3 = /* @__PURE__ */ dual(2, (self, f) => reduce2(self, empty3(), (map10, value, key) => set(map10, key, f(value, key))));
    forEach = /* @__PURE__ */ dual(2, (self, f) => reduce2(self, void 0, (_, value, key) => f(value, key)));
    reduce2 = /* @__PURE__ */ dual(3, (self, zero2, f) => {
      const root = self._root;
      if (root._tag === "LeafNode") {
        return isSome2(root.value) ? f(zero2, root.value.value, root.key) : zero2;
      }
      if (root._tag === "EmptyNode") {
        return zero2;
      }
      const toVisit = [root.children];
      let children;
      while (children = toVisit.pop()) {
        for (let i = 0, len = children.length; i < len; ) {
          const child = children[i++];
          if (child && !isEmptyNode(child)) {
            if (child._tag === "LeafNode") {
              if (isSome2(child.value)) {
                zero2 = f(zero2, child.value.value, child.key);
              }
            } else {
              toVisit.push(child.children);
            }
          }
        }
      }
      return zero2;
    });
  }
});

// node_modules/effect/dist/esm/internal/hashSet.js
var HashSetSymbolKey, HashSetTypeId, HashSetProto, makeImpl2, isHashSet, _empty3, empty4, fromIterable4, make6, has2, size2, beginMutation2, endMutation2, mutate, add, remove3, difference2, union2, forEach2, reduce3;
var init_hashSet = __esm({
  "node_modules/effect/dist/esm/internal/hashSet.js"() {
    init_Equal();
    init_Function();
    init_Hash();
    init_Inspectable();
    init_Pipeable();
    init_Predicate();
    init_hashMap();
    HashSetSymbolKey = "effect/HashSet";
    HashSetTypeId = /* @__PURE__ */ Symbol.for(HashSetSymbolKey);
    HashSetProto = {
      [HashSetTypeId]: HashSetTypeId,
      [Symbol.iterator]() {
        return keys(this._keyMap);
      },
      [symbol]() {
        return cached(this, combine(hash(this._keyMap))(hash(HashSetSymbolKey)));
      },
      [symbol2](that) {
        if (isHashSet(that)) {
          return size(this._keyMap) === size(that._keyMap) && equals(this._keyMap, that._keyMap);
        }
        return false;
      },
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "HashSet",
          values: Array.from(this).map(toJSON)
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    makeImpl2 = (keyMap) => {
      const set5 = Object.create(HashSetProto);
      set5._keyMap = keyMap;
      return set5;
    };
    isHashSet = (u) => hasProperty(u, HashSetTypeId);
    _empty3 = /* @__PURE__ */ makeImpl2(/* @__PURE__ */ empty3());
    empty4 = () => _empty3;
    fromIterable4 = (elements) => {
      const set5 = beginMutation2(empty4());
      for (const value of elements) {
        add(set5, value);
      }
      return endMutation2(set5);
    };
    make6 = (...elements) => {
      const set5 = beginMutation2(empty4());
      for (const value of elements) {
        add(set5, value);
      }
      return endMutation2(set5);
    };
    has2 = /* @__PURE__ */ dual(2, (self, value) => has(self._keyMap, value));
    size2 = (self) => size(self._keyMap);
    beginMutation2 = (self) => makeImpl2(beginMutation(self._keyMap));
    endMutation2 = (self) => {
      ;
      self._keyMap._editable = false;
      return self;
    };
    mutate = /* @__PURE__ */ dual(2, (self, f) => {
      const transient = beginMutation2(self);
      f(transient);
      return endMutation2(transient);
    });
    add = /* @__PURE__ */ dual(2, (self, value) => self._keyMap._editable ? (set(value, true)(self._keyMap), self) : makeImpl2(set(value, true)(self._keyMap)));
    remove3 = /* @__PURE__ */ dual(2, (self, value) => self._keyMap._editable ? (remove2(value)(self._keyMap), self) : makeImpl2(remove2(value)(self._keyMap)));
    difference2 = /* @__PURE__ */ dual(2, (self, that) => mutate(self, (set5) => {
      for (const value of that) {
        remove3(set5, value);
      }
    }));
    union2 = /* @__PURE__ */ dual(2, (self, that) => mutate(empty4(), (set5) => {
      forEach2(self, (value) => add(set5, value));
      for (const value of that) {
        add(set5, value);
      }
    }));
    forEach2 = /* @__PURE__ */ dual(2, (self, f) => forEach(self._keyMap, (_, k) => f(k)));
    reduce3 = /* @__PURE__ */ dual(3, (self, zero2, f) => reduce2(self._keyMap, zero2, (z, _, a) => f(z, a)));
  }
});

// node_modules/effect/dist/esm/HashSet.js
var empty5, fromIterable5, make7, has3, size3, add2, remove4, difference3, union3, reduce4;
var init_HashSet = __esm({
  "node_modules/effect/dist/esm/HashSet.js"() {
    init_hashSet();
    empty5 = empty4;
    fromIterable5 = fromIterable4;
    make7 = make6;
    has3 = has2;
    size3 = size2;
    add2 = add;
    remove4 = remove3;
    difference3 = difference2;
    union3 = union2;
    reduce4 = reduce3;
  }
});

// node_modules/effect/dist/esm/internal/opCodes/cause.js
var OP_DIE, OP_EMPTY, OP_FAIL, OP_INTERRUPT, OP_PARALLEL, OP_SEQUENTIAL;
var init_cause = __esm({
  "node_modules/effect/dist/esm/internal/opCodes/cause.js"() {
    OP_DIE = "Die";
    OP_EMPTY = "Empty";
    OP_FAIL = "Fail";
    OP_INTERRUPT = "Interrupt";
    OP_PARALLEL = "Parallel";
    OP_SEQUENTIAL = "Sequential";
  }
});

// node_modules/effect/dist/esm/internal/stackTraceLimit.js
var ObjectGetOwnPropertyDescriptor, ObjectPrototypeHasOwnProperty, ObjectIsExtensible, isStackTraceLimitWritable, canWriteStackTraceLimit, getStackTraceLimit, setStackTraceLimit;
var init_stackTraceLimit = __esm({
  "node_modules/effect/dist/esm/internal/stackTraceLimit.js"() {
    ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
    ObjectPrototypeHasOwnProperty = Object.prototype.hasOwnProperty;
    ObjectIsExtensible = Object.isExtensible;
    isStackTraceLimitWritable = () => {
      const desc = ObjectGetOwnPropertyDescriptor(Error, "stackTraceLimit");
      if (desc === void 0) {
        return ObjectIsExtensible(Error);
      }
      return ObjectPrototypeHasOwnProperty.call(desc, "writable") ? desc.writable === true : desc.set !== void 0;
    };
    canWriteStackTraceLimit = /* @__PURE__ */ isStackTraceLimitWritable();
    getStackTraceLimit = () => Error.stackTraceLimit;
    setStackTraceLimit = (value) => {
      if (canWriteStackTraceLimit) {
        ;
        Error.stackTraceLimit = value;
      }
    };
  }
});

// node_modules/effect/dist/esm/internal/cause.js
var CauseSymbolKey, CauseTypeId, variance, proto, empty6, fail, die, interrupt, parallel, sequential, isCause, isEmptyType, isEmpty3, isInterrupted, isInterruptedOnly, failures, defects, interruptors, failureOption, failureOrCause, interruptOption, stripFailures, electFailures, causeEquals, flattenCause, flattenCauseLoop, find, evaluateCause, IsInterruptedOnlyCauseReducer, OP_SEQUENTIAL_CASE, OP_PARALLEL_CASE, match3, reduce5, reduceWithContext, pretty, renderErrorCause, makePrettyError, prettyErrorMessage, locationRegex, spanToTrace, prettyErrorStack, spanSymbol, prettyErrors;
var init_cause2 = __esm({
  "node_modules/effect/dist/esm/internal/cause.js"() {
    init_Array();
    init_Chunk();
    init_Either();
    init_Equal();
    init_Function();
    init_GlobalValue();
    init_Hash();
    init_HashSet();
    init_Inspectable();
    init_Option();
    init_Pipeable();
    init_Predicate();
    init_errors();
    init_cause();
    init_stackTraceLimit();
    CauseSymbolKey = "effect/Cause";
    CauseTypeId = /* @__PURE__ */ Symbol.for(CauseSymbolKey);
    variance = {
      /* c8 ignore next */
      _E: (_) => _
    };
    proto = {
      [CauseTypeId]: variance,
      [symbol]() {
        return pipe(hash(CauseSymbolKey), combine(hash(flattenCause(this))), cached(this));
      },
      [symbol2](that) {
        return isCause(that) && causeEquals(this, that);
      },
      pipe() {
        return pipeArguments(this, arguments);
      },
      toJSON() {
        switch (this._tag) {
          case "Empty":
            return {
              _id: "Cause",
              _tag: this._tag
            };
          case "Die":
            return {
              _id: "Cause",
              _tag: this._tag,
              defect: toJSON(this.defect)
            };
          case "Interrupt":
            return {
              _id: "Cause",
              _tag: this._tag,
              fiberId: this.fiberId.toJSON()
            };
          case "Fail":
            return {
              _id: "Cause",
              _tag: this._tag,
              error: toJSON(this.error)
            };
          case "Sequential":
          case "Parallel":
            return {
              _id: "Cause",
              _tag: this._tag,
              left: toJSON(this.left),
              right: toJSON(this.right)
            };
        }
      },
      toString() {
        return pretty(this);
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      }
    };
    empty6 = /* @__PURE__ */ (() => {
      const o = /* @__PURE__ */ Object.create(proto);
      o._tag = OP_EMPTY;
      return o;
    })();
    fail = (error) => {
      const o = Object.create(proto);
      o._tag = OP_FAIL;
      o.error = error;
      return o;
    };
    die = (defect) => {
      const o = Object.create(proto);
      o._tag = OP_DIE;
      o.defect = defect;
      return o;
    };
    interrupt = (fiberId2) => {
      const o = Object.create(proto);
      o._tag = OP_INTERRUPT;
      o.fiberId = fiberId2;
      return o;
    };
    parallel = (left3, right3) => {
      const o = Object.create(proto);
      o._tag = OP_PARALLEL;
      o.left = left3;
      o.right = right3;
      return o;
    };
    sequential = (left3, right3) => {
      const o = Object.create(proto);
      o._tag = OP_SEQUENTIAL;
      o.left = left3;
      o.right = right3;
      return o;
    };
    isCause = (u) => hasProperty(u, CauseTypeId);
    isEmptyType = (self) => self._tag === OP_EMPTY;
    isEmpty3 = (self) => {
      if (self._tag === OP_EMPTY) {
        return true;
      }
      return reduce5(self, true, (acc, cause2) => {
        switch (cause2._tag) {
          case OP_EMPTY: {
            return some2(acc);
          }
          case OP_DIE:
          case OP_FAIL:
          case OP_INTERRUPT: {
            return some2(false);
          }
          default: {
            return none2();
          }
        }
      });
    };
    isInterrupted = (self) => isSome2(interruptOption(self));
    isInterruptedOnly = (self) => reduceWithContext(void 0, IsInterruptedOnlyCauseReducer)(self);
    failures = (self) => reverse2(reduce5(self, empty2(), (list, cause2) => cause2._tag === OP_FAIL ? some2(pipe(list, prepend2(cause2.error))) : none2()));
    defects = (self) => reverse2(reduce5(self, empty2(), (list, cause2) => cause2._tag === OP_DIE ? some2(pipe(list, prepend2(cause2.defect))) : none2()));
    interruptors = (self) => reduce5(self, empty5(), (set5, cause2) => cause2._tag === OP_INTERRUPT ? some2(pipe(set5, add2(cause2.fiberId))) : none2());
    failureOption = (self) => find(self, (cause2) => cause2._tag === OP_FAIL ? some2(cause2.error) : none2());
    failureOrCause = (self) => {
      const option2 = failureOption(self);
      switch (option2._tag) {
        case "None": {
          return right2(self);
        }
        case "Some": {
          return left2(option2.value);
        }
      }
    };
    interruptOption = (self) => find(self, (cause2) => cause2._tag === OP_INTERRUPT ? some2(cause2.fiberId) : none2());
    stripFailures = (self) => match3(self, {
      onEmpty: empty6,
      onFail: () => empty6,
      onDie: die,
      onInterrupt: interrupt,
      onSequential: sequential,
      onParallel: parallel
    });
    electFailures = (self) => match3(self, {
      onEmpty: empty6,
      onFail: die,
      onDie: die,
      onInterrupt: interrupt,
      onSequential: sequential,
      onParallel: parallel
    });
    causeEquals = (left3, right3) => {
      let leftStack = of2(left3);
      let rightStack = of2(right3);
      while (isNonEmpty(leftStack) && isNonEmpty(rightStack)) {
        const [leftParallel, leftSequential] = pipe(headNonEmpty2(leftStack), reduce5([empty5(), empty2()], ([parallel2, sequential3], cause2) => {
          const [par2, seq2] = evaluateCause(cause2);
          return some2([pipe(parallel2, union3(par2)), pipe(sequential3, appendAll2(seq2))]);
        }));
        const [rightParallel, rightSequential] = pipe(headNonEmpty2(rightStack), reduce5([empty5(), empty2()], ([parallel2, sequential3], cause2) => {
          const [par2, seq2] = evaluateCause(cause2);
          return some2([pipe(parallel2, union3(par2)), pipe(sequential3, appendAll2(seq2))]);
        }));
        if (!equals(leftParallel, rightParallel)) {
          return false;
        }
        leftStack = leftSequential;
        rightStack = rightSequential;
      }
      return true;
    };
    flattenCause = (cause2) => {
      return flattenCauseLoop(of2(cause2), empty2());
    };
    flattenCauseLoop = (causes, flattened) => {
      while (1) {
        const [parallel2, sequential3] = pipe(causes, reduce([empty5(), empty2()], ([parallel3, sequential4], cause2) => {
          const [par2, seq2] = evaluateCause(cause2);
          return [pipe(parallel3, union3(par2)), pipe(sequential4, appendAll2(seq2))];
        }));
        const updated = size3(parallel2) > 0 ? pipe(flattened, prepend2(parallel2)) : flattened;
        if (isEmpty(sequential3)) {
          return reverse2(updated);
        }
        causes = sequential3;
        flattened = updated;
      }
      throw new Error(getBugErrorMessage("Cause.flattenCauseLoop"));
    };
    find = /* @__PURE__ */ dual(2, (self, pf) => {
      const stack = [self];
      while (stack.length > 0) {
        const item = stack.pop();
        const option2 = pf(item);
        switch (option2._tag) {
          case "None": {
            switch (item._tag) {
              case OP_SEQUENTIAL:
              case OP_PARALLEL: {
                stack.push(item.right);
                stack.push(item.left);
                break;
              }
            }
            break;
          }
          case "Some": {
            return option2;
          }
        }
      }
      return none2();
    });
    evaluateCause = (self) => {
      let cause2 = self;
      const stack = [];
      let _parallel = empty5();
      let _sequential = empty2();
      while (cause2 !== void 0) {
        switch (cause2._tag) {
          case OP_EMPTY: {
            if (stack.length === 0) {
              return [_parallel, _sequential];
            }
            cause2 = stack.pop();
            break;
          }
          case OP_FAIL: {
            _parallel = add2(_parallel, make4(cause2._tag, cause2.error));
            if (stack.length === 0) {
              return [_parallel, _sequential];
            }
            cause2 = stack.pop();
            break;
          }
          case OP_DIE: {
            _parallel = add2(_parallel, make4(cause2._tag, cause2.defect));
            if (stack.length === 0) {
              return [_parallel, _sequential];
            }
            cause2 = stack.pop();
            break;
          }
          case OP_INTERRUPT: {
            _parallel = add2(_parallel, make4(cause2._tag, cause2.fiberId));
            if (stack.length === 0) {
              return [_parallel, _sequential];
            }
            cause2 = stack.pop();
            break;
          }
          case OP_SEQUENTIAL: {
            switch (cause2.left._tag) {
              case OP_EMPTY: {
                cause2 = cause2.right;
                break;
              }
              case OP_SEQUENTIAL: {
                cause2 = sequential(cause2.left.left, sequential(cause2.left.right, cause2.right));
                break;
              }
              case OP_PARALLEL: {
                cause2 = parallel(sequential(cause2.left.left, cause2.right), sequential(cause2.left.right, cause2.right));
                break;
              }
              default: {
                _sequential = prepend2(_sequential, cause2.right);
                cause2 = cause2.left;
                break;
              }
            }
            break;
          }
          case OP_PARALLEL: {
            stack.push(cause2.right);
            cause2 = cause2.left;
            break;
          }
        }
      }
      throw new Error(getBugErrorMessage("Cause.evaluateCauseLoop"));
    };
    IsInterruptedOnlyCauseReducer = {
      emptyCase: constTrue,
      failCase: constFalse,
      dieCase: constFalse,
      interruptCase: constTrue,
      sequentialCase: (_, left3, right3) => left3 && right3,
      parallelCase: (_, left3, right3) => left3 && right3
    };
    OP_SEQUENTIAL_CASE = "SequentialCase";
    OP_PARALLEL_CASE = "ParallelCase";
    match3 = /* @__PURE__ */ dual(2, (self, {
      onDie,
      onEmpty,
      onFail,
      onInterrupt: onInterrupt2,
      onParallel,
      onSequential
    }) => {
      return reduceWithContext(self, void 0, {
        emptyCase: () => onEmpty,
        failCase: (_, error) => onFail(error),
        dieCase: (_, defect) => onDie(defect),
        interruptCase: (_, fiberId2) => onInterrupt2(fiberId2),
        sequentialCase: (_, left3, right3) => onSequential(left3, right3),
        parallelCase: (_, left3, right3) => onParallel(left3, right3)
      });
    });
    reduce5 = /* @__PURE__ */ dual(3, (self, zero2, pf) => {
      let accumulator = zero2;
      let cause2 = self;
      const causes = [];
      while (cause2 !== void 0) {
        const option2 = pf(accumulator, cause2);
        accumulator = isSome2(option2) ? option2.value : accumulator;
        switch (cause2._tag) {
          case OP_SEQUENTIAL: {
            causes.push(cause2.right);
            cause2 = cause2.left;
            break;
          }
          case OP_PARALLEL: {
            causes.push(cause2.right);
            cause2 = cause2.left;
            break;
          }
          default: {
            cause2 = void 0;
            break;
          }
        }
        if (cause2 === void 0 && causes.length > 0) {
          cause2 = causes.pop();
        }
      }
      return accumulator;
    });
    reduceWithContext = /* @__PURE__ */ dual(3, (self, context2, reducer) => {
      const input = [self];
      const output = [];
      while (input.length > 0) {
        const cause2 = input.pop();
        switch (cause2._tag) {
          case OP_EMPTY: {
            output.push(right2(reducer.emptyCase(context2)));
            break;
          }
          case OP_FAIL: {
            output.push(right2(reducer.failCase(context2, cause2.error)));
            break;
          }
          case OP_DIE: {
            output.push(right2(reducer.dieCase(context2, cause2.defect)));
            break;
          }
          case OP_INTERRUPT: {
            output.push(right2(reducer.interruptCase(context2, cause2.fiberId)));
            break;
          }
          case OP_SEQUENTIAL: {
            input.push(cause2.right);
            input.push(cause2.left);
            output.push(left2({
              _tag: OP_SEQUENTIAL_CASE
            }));
            break;
          }
          case OP_PARALLEL: {
            input.push(cause2.right);
            input.push(cause2.left);
            output.push(left2({
              _tag: OP_PARALLEL_CASE
            }));
            break;
          }
        }
      }
      const accumulator = [];
      while (output.length > 0) {
        const either4 = output.pop();
        switch (either4._tag) {
          case "Left": {
            switch (either4.left._tag) {
              case OP_SEQUENTIAL_CASE: {
                const left3 = accumulator.pop();
                const right3 = accumulator.pop();
                const value = reducer.sequentialCase(context2, left3, right3);
                accumulator.push(value);
                break;
              }
              case OP_PARALLEL_CASE: {
                const left3 = accumulator.pop();
                const right3 = accumulator.pop();
                const value = reducer.parallelCase(context2, left3, right3);
                accumulator.push(value);
                break;
              }
            }
            break;
          }
          case "Right": {
            accumulator.push(either4.right);
            break;
          }
        }
      }
      if (accumulator.length === 0) {
        throw new Error("BUG: Cause.reduceWithContext - please report an issue at https://github.com/Effect-TS/effect/issues");
      }
      return accumulator.pop();
    });
    pretty = (cause2, options) => {
      if (isInterruptedOnly(cause2)) {
        return "All fibers interrupted without errors.";
      }
      return prettyErrors(cause2).map(function(e) {
        if (options?.renderErrorCause !== true || e.cause === void 0) {
          return e.stack;
        }
        return `${e.stack} {
${renderErrorCause(e.cause, "  ")}
}`;
      }).join("\n");
    };
    renderErrorCause = (cause2, prefix) => {
      const lines = cause2.stack.split("\n");
      let stack = `${prefix}[cause]: ${lines[0]}`;
      for (let i = 1, len = lines.length; i < len; i++) {
        stack += `
${prefix}${lines[i]}`;
      }
      if (cause2.cause) {
        stack += ` {
${renderErrorCause(cause2.cause, `${prefix}  `)}
${prefix}}`;
      }
      return stack;
    };
    makePrettyError = (originalError) => {
      const originalErrorIsObject = typeof originalError === "object" && originalError !== null;
      const prevLimit = getStackTraceLimit();
      setStackTraceLimit(1);
      const error = new Error(prettyErrorMessage(originalError), originalErrorIsObject && "cause" in originalError && typeof originalError.cause !== "undefined" ? {
        cause: makePrettyError(originalError.cause)
      } : void 0);
      setStackTraceLimit(prevLimit);
      if (error.message === "") {
        error.message = "An error has occurred";
      }
      setStackTraceLimit(prevLimit);
      error.name = originalError instanceof Error ? originalError.name : "Error";
      if (originalErrorIsObject) {
        if (spanSymbol in originalError) {
          error.span = originalError[spanSymbol];
        }
        Object.keys(originalError).forEach((key) => {
          if (!(key in error)) {
            error[key] = originalError[key];
          }
        });
      }
      error.stack = prettyErrorStack(`${error.name}: ${error.message}`, originalError instanceof Error && originalError.stack ? originalError.stack : "", error.span);
      return error;
    };
    prettyErrorMessage = (u) => {
      if (typeof u === "string") {
        return u;
      }
      if (typeof u === "object" && u !== null && u instanceof Error) {
        return u.message;
      }
      try {
        if (hasProperty(u, "toString") && isFunction2(u["toString"]) && u["toString"] !== Object.prototype.toString && u["toString"] !== globalThis.Array.prototype.toString) {
          return u["toString"]();
        }
      } catch {
      }
      return stringifyCircular(u);
    };
    locationRegex = /\((.*)\)/g;
    spanToTrace = /* @__PURE__ */ globalValue("effect/Tracer/spanToTrace", () => /* @__PURE__ */ new WeakMap());
    prettyErrorStack = (message, stack, span2) => {
      const out = [message];
      const lines = stack.startsWith(message) ? stack.slice(message.length).split("\n") : stack.split("\n");
      for (let i = 1; i < lines.length; i++) {
        if (lines[i].includes(" at new BaseEffectError") || lines[i].includes(" at new YieldableError")) {
          i++;
          continue;
        }
        if (lines[i].includes("Generator.next")) {
          break;
        }
        if (lines[i].includes("effect_internal_function")) {
          break;
        }
        out.push(lines[i].replace(/at .*effect_instruction_i.*\((.*)\)/, "at $1").replace(/EffectPrimitive\.\w+/, "<anonymous>"));
      }
      if (span2) {
        let current = span2;
        let i = 0;
        while (current && current._tag === "Span" && i < 10) {
          const stackFn = spanToTrace.get(current);
          if (typeof stackFn === "function") {
            const stack2 = stackFn();
            if (typeof stack2 === "string") {
              const locationMatchAll = stack2.matchAll(locationRegex);
              let match7 = false;
              for (const [, location] of locationMatchAll) {
                match7 = true;
                out.push(`    at ${current.name} (${location})`);
              }
              if (!match7) {
                out.push(`    at ${current.name} (${stack2.replace(/^at /, "")})`);
              }
            } else {
              out.push(`    at ${current.name}`);
            }
          } else {
            out.push(`    at ${current.name}`);
          }
          current = getOrUndefined(current.parent);
          i++;
        }
      }
      return out.join("\n");
    };
    spanSymbol = /* @__PURE__ */ Symbol.for("effect/SpanAnnotation");
    prettyErrors = (cause2) => reduceWithContext(cause2, void 0, {
      emptyCase: () => [],
      dieCase: (_, unknownError) => {
        return [makePrettyError(unknownError)];
      },
      failCase: (_, error) => {
        return [makePrettyError(error)];
      },
      interruptCase: () => [],
      parallelCase: (_, l, r) => [...l, ...r],
      sequentialCase: (_, l, r) => [...l, ...r]
    });
  }
});

// node_modules/effect/dist/esm/internal/context.js
var TagTypeId, ReferenceTypeId, STMSymbolKey, STMTypeId, TagProto, ReferenceProto, makeGenericTag, Reference, TypeId4, ContextProto, makeContext, serviceNotFoundError, isContext, isReference, _empty4, empty7, make8, add3, defaultValueCache, getDefaultValue, unsafeGetReference, unsafeGet3, get3, getOption, merge2;
var init_context = __esm({
  "node_modules/effect/dist/esm/internal/context.js"() {
    init_Equal();
    init_Function();
    init_GlobalValue();
    init_Hash();
    init_Inspectable();
    init_Pipeable();
    init_Predicate();
    init_effectable();
    init_option();
    init_stackTraceLimit();
    TagTypeId = /* @__PURE__ */ Symbol.for("effect/Context/Tag");
    ReferenceTypeId = /* @__PURE__ */ Symbol.for("effect/Context/Reference");
    STMSymbolKey = "effect/STM";
    STMTypeId = /* @__PURE__ */ Symbol.for(STMSymbolKey);
    TagProto = {
      ...EffectPrototype,
      _op: "Tag",
      [STMTypeId]: effectVariance,
      [TagTypeId]: {
        _Service: (_) => _,
        _Identifier: (_) => _
      },
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "Tag",
          key: this.key,
          stack: this.stack
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      of(self) {
        return self;
      },
      context(self) {
        return make8(this, self);
      }
    };
    ReferenceProto = {
      ...TagProto,
      [ReferenceTypeId]: ReferenceTypeId
    };
    makeGenericTag = (key) => {
      const limit = getStackTraceLimit();
      setStackTraceLimit(2);
      const creationError = new Error();
      setStackTraceLimit(limit);
      const tag = Object.create(TagProto);
      Object.defineProperty(tag, "stack", {
        get() {
          return creationError.stack;
        }
      });
      tag.key = key;
      return tag;
    };
    Reference = () => (id, options) => {
      const limit = getStackTraceLimit();
      setStackTraceLimit(2);
      const creationError = new Error();
      setStackTraceLimit(limit);
      function ReferenceClass() {
      }
      Object.setPrototypeOf(ReferenceClass, ReferenceProto);
      ReferenceClass.key = id;
      ReferenceClass.defaultValue = options.defaultValue;
      Object.defineProperty(ReferenceClass, "stack", {
        get() {
          return creationError.stack;
        }
      });
      return ReferenceClass;
    };
    TypeId4 = /* @__PURE__ */ Symbol.for("effect/Context");
    ContextProto = {
      [TypeId4]: {
        _Services: (_) => _
      },
      [symbol2](that) {
        if (isContext(that)) {
          if (this.unsafeMap.size === that.unsafeMap.size) {
            for (const k of this.unsafeMap.keys()) {
              if (!that.unsafeMap.has(k) || !equals(this.unsafeMap.get(k), that.unsafeMap.get(k))) {
                return false;
              }
            }
            return true;
          }
        }
        return false;
      },
      [symbol]() {
        return cached(this, number(this.unsafeMap.size));
      },
      pipe() {
        return pipeArguments(this, arguments);
      },
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "Context",
          services: Array.from(this.unsafeMap).map(toJSON)
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      }
    };
    makeContext = (unsafeMap) => {
      const context2 = Object.create(ContextProto);
      context2.unsafeMap = unsafeMap;
      return context2;
    };
    serviceNotFoundError = (tag) => {
      const error = new Error(`Service not found${tag.key ? `: ${String(tag.key)}` : ""}`);
      if (tag.stack) {
        const lines = tag.stack.split("\n");
        if (lines.length > 2) {
          const afterAt = lines[2].match(/at (.*)/);
          if (afterAt) {
            error.message = error.message + ` (defined at ${afterAt[1]})`;
          }
        }
      }
      if (error.stack) {
        const lines = error.stack.split("\n");
        lines.splice(1, 3);
        error.stack = lines.join("\n");
      }
      return error;
    };
    isContext = (u) => hasProperty(u, TypeId4);
    isReference = (u) => hasProperty(u, ReferenceTypeId);
    _empty4 = /* @__PURE__ */ makeContext(/* @__PURE__ */ new Map());
    empty7 = () => _empty4;
    make8 = (tag, service) => makeContext(/* @__PURE__ */ new Map([[tag.key, service]]));
    add3 = /* @__PURE__ */ dual(3, (self, tag, service) => {
      const map10 = new Map(self.unsafeMap);
      map10.set(tag.key, service);
      return makeContext(map10);
    });
    defaultValueCache = /* @__PURE__ */ globalValue("effect/Context/defaultValueCache", () => /* @__PURE__ */ new Map());
    getDefaultValue = (tag) => {
      if (defaultValueCache.has(tag.key)) {
        return defaultValueCache.get(tag.key);
      }
      const value = tag.defaultValue();
      defaultValueCache.set(tag.key, value);
      return value;
    };
    unsafeGetReference = (self, tag) => {
      return self.unsafeMap.has(tag.key) ? self.unsafeMap.get(tag.key) : getDefaultValue(tag);
    };
    unsafeGet3 = /* @__PURE__ */ dual(2, (self, tag) => {
      if (!self.unsafeMap.has(tag.key)) {
        if (ReferenceTypeId in tag) return getDefaultValue(tag);
        throw serviceNotFoundError(tag);
      }
      return self.unsafeMap.get(tag.key);
    });
    get3 = unsafeGet3;
    getOption = /* @__PURE__ */ dual(2, (self, tag) => {
      if (!self.unsafeMap.has(tag.key)) {
        return isReference(tag) ? some(getDefaultValue(tag)) : none;
      }
      return some(self.unsafeMap.get(tag.key));
    });
    merge2 = /* @__PURE__ */ dual(2, (self, that) => {
      const map10 = new Map(self.unsafeMap);
      for (const [tag, s] of that.unsafeMap) {
        map10.set(tag, s);
      }
      return makeContext(map10);
    });
  }
});

// node_modules/effect/dist/esm/Context.js
var GenericTag, empty8, add4, get4, unsafeGet4, getOption2, merge3, Reference2;
var init_Context = __esm({
  "node_modules/effect/dist/esm/Context.js"() {
    init_context();
    GenericTag = makeGenericTag;
    empty8 = empty7;
    add4 = add3;
    get4 = get3;
    unsafeGet4 = unsafeGet3;
    getOption2 = getOption;
    merge3 = merge2;
    Reference2 = Reference;
  }
});

// node_modules/effect/dist/esm/Duration.js
var TypeId5, bigint0, bigint24, bigint60, bigint1e3, bigint1e6, bigint1e9, DURATION_REGEX, parseNanos, decode, zeroValue, infinityValue, DurationProto, make9, isDuration, isZero, zero, infinity, nanos, millis, seconds, minutes, hours, days, weeks, toMillis, unsafeToNanos, toHrTime, match4, matchWith, Equivalence, lessThanOrEqualTo, greaterThanOrEqualTo, equals2, parts, format2;
var init_Duration = __esm({
  "node_modules/effect/dist/esm/Duration.js"() {
    init_Equal();
    init_Function();
    init_Hash();
    init_Inspectable();
    init_Pipeable();
    init_Predicate();
    TypeId5 = /* @__PURE__ */ Symbol.for("effect/Duration");
    bigint0 = /* @__PURE__ */ BigInt(0);
    bigint24 = /* @__PURE__ */ BigInt(24);
    bigint60 = /* @__PURE__ */ BigInt(60);
    bigint1e3 = /* @__PURE__ */ BigInt(1e3);
    bigint1e6 = /* @__PURE__ */ BigInt(1e6);
    bigint1e9 = /* @__PURE__ */ BigInt(1e9);
    DURATION_REGEX = /^(-?\d+(?:\.\d+)?)\s+(nanos?|micros?|millis?|seconds?|minutes?|hours?|days?|weeks?)$/;
    parseNanos = (input, scale) => input.includes(".") ? BigInt(Math.round(Number(input) * scale)) : BigInt(input) * BigInt(scale);
    decode = (input) => {
      if (isDuration(input)) {
        return input;
      } else if (isNumber(input)) {
        return millis(input);
      } else if (isBigInt(input)) {
        return nanos(input);
      } else if (Array.isArray(input) && input.length === 2 && input.every(isNumber)) {
        if (input[0] === -Infinity || input[1] === -Infinity || Number.isNaN(input[0]) || Number.isNaN(input[1])) {
          return zero;
        }
        if (input[0] === Infinity || input[1] === Infinity) {
          return infinity;
        }
        return nanos(BigInt(Math.round(input[0] * 1e9)) + BigInt(Math.round(input[1])));
      } else if (isString(input)) {
        const match7 = DURATION_REGEX.exec(input);
        if (match7) {
          const [_, valueStr, unit] = match7;
          const value = Number(valueStr);
          switch (unit) {
            case "nano":
            case "nanos":
              return nanos(parseNanos(valueStr, 1));
            case "micro":
            case "micros":
              return nanos(parseNanos(valueStr, 1e3));
            case "milli":
            case "millis":
              return millis(value);
            case "second":
            case "seconds":
              return seconds(value);
            case "minute":
            case "minutes":
              return minutes(value);
            case "hour":
            case "hours":
              return hours(value);
            case "day":
            case "days":
              return days(value);
            case "week":
            case "weeks":
              return weeks(value);
          }
        }
      }
      throw new Error("Invalid DurationInput");
    };
    zeroValue = {
      _tag: "Millis",
      millis: 0
    };
    infinityValue = {
      _tag: "Infinity"
    };
    DurationProto = {
      [TypeId5]: TypeId5,
      [symbol]() {
        return cached(this, structure(this.value));
      },
      [symbol2](that) {
        return isDuration(that) && equals2(this, that);
      },
      toString() {
        return `Duration(${format2(this)})`;
      },
      toJSON() {
        switch (this.value._tag) {
          case "Millis":
            return {
              _id: "Duration",
              _tag: "Millis",
              millis: this.value.millis
            };
          case "Nanos":
            return {
              _id: "Duration",
              _tag: "Nanos",
              hrtime: toHrTime(this)
            };
          case "Infinity":
            return {
              _id: "Duration",
              _tag: "Infinity"
            };
        }
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    make9 = (input) => {
      const duration = Object.create(DurationProto);
      if (isNumber(input)) {
        if (isNaN(input) || input <= 0) {
          duration.value = zeroValue;
        } else if (!Number.isFinite(input)) {
          duration.value = infinityValue;
        } else if (!Number.isInteger(input)) {
          duration.value = {
            _tag: "Nanos",
            nanos: BigInt(Math.round(input * 1e6))
          };
        } else {
          duration.value = {
            _tag: "Millis",
            millis: input
          };
        }
      } else if (input <= bigint0) {
        duration.value = zeroValue;
      } else {
        duration.value = {
          _tag: "Nanos",
          nanos: input
        };
      }
      return duration;
    };
    isDuration = (u) => hasProperty(u, TypeId5);
    isZero = (self) => {
      switch (self.value._tag) {
        case "Millis": {
          return self.value.millis === 0;
        }
        case "Nanos": {
          return self.value.nanos === bigint0;
        }
        case "Infinity": {
          return false;
        }
      }
    };
    zero = /* @__PURE__ */ make9(0);
    infinity = /* @__PURE__ */ make9(Infinity);
    nanos = (nanos2) => make9(nanos2);
    millis = (millis2) => make9(millis2);
    seconds = (seconds2) => make9(seconds2 * 1e3);
    minutes = (minutes2) => make9(minutes2 * 6e4);
    hours = (hours2) => make9(hours2 * 36e5);
    days = (days2) => make9(days2 * 864e5);
    weeks = (weeks2) => make9(weeks2 * 6048e5);
    toMillis = (self) => match4(self, {
      onMillis: (millis2) => millis2,
      onNanos: (nanos2) => Number(nanos2) / 1e6
    });
    unsafeToNanos = (self) => {
      const _self = decode(self);
      switch (_self.value._tag) {
        case "Infinity":
          throw new Error("Cannot convert infinite duration to nanos");
        case "Nanos":
          return _self.value.nanos;
        case "Millis":
          return BigInt(Math.round(_self.value.millis * 1e6));
      }
    };
    toHrTime = (self) => {
      const _self = decode(self);
      switch (_self.value._tag) {
        case "Infinity":
          return [Infinity, 0];
        case "Nanos":
          return [Number(_self.value.nanos / bigint1e9), Number(_self.value.nanos % bigint1e9)];
        case "Millis":
          return [Math.floor(_self.value.millis / 1e3), Math.round(_self.value.millis % 1e3 * 1e6)];
      }
    };
    match4 = /* @__PURE__ */ dual(2, (self, options) => {
      const _self = decode(self);
      switch (_self.value._tag) {
        case "Nanos":
          return options.onNanos(_self.value.nanos);
        case "Infinity":
          return options.onMillis(Infinity);
        case "Millis":
          return options.onMillis(_self.value.millis);
      }
    });
    matchWith = /* @__PURE__ */ dual(3, (self, that, options) => {
      const _self = decode(self);
      const _that = decode(that);
      if (_self.value._tag === "Infinity" || _that.value._tag === "Infinity") {
        return options.onMillis(toMillis(_self), toMillis(_that));
      } else if (_self.value._tag === "Nanos" || _that.value._tag === "Nanos") {
        const selfNanos = _self.value._tag === "Nanos" ? _self.value.nanos : BigInt(Math.round(_self.value.millis * 1e6));
        const thatNanos = _that.value._tag === "Nanos" ? _that.value.nanos : BigInt(Math.round(_that.value.millis * 1e6));
        return options.onNanos(selfNanos, thatNanos);
      }
      return options.onMillis(_self.value.millis, _that.value.millis);
    });
    Equivalence = (self, that) => matchWith(self, that, {
      onMillis: (self2, that2) => self2 === that2,
      onNanos: (self2, that2) => self2 === that2
    });
    lessThanOrEqualTo = /* @__PURE__ */ dual(2, (self, that) => matchWith(self, that, {
      onMillis: (self2, that2) => self2 <= that2,
      onNanos: (self2, that2) => self2 <= that2
    }));
    greaterThanOrEqualTo = /* @__PURE__ */ dual(2, (self, that) => matchWith(self, that, {
      onMillis: (self2, that2) => self2 >= that2,
      onNanos: (self2, that2) => self2 >= that2
    }));
    equals2 = /* @__PURE__ */ dual(2, (self, that) => Equivalence(decode(self), decode(that)));
    parts = (self) => {
      const duration = decode(self);
      if (duration.value._tag === "Infinity") {
        return {
          days: Infinity,
          hours: Infinity,
          minutes: Infinity,
          seconds: Infinity,
          millis: Infinity,
          nanos: Infinity
        };
      }
      const nanos2 = unsafeToNanos(duration);
      const ms = nanos2 / bigint1e6;
      const sec = ms / bigint1e3;
      const min2 = sec / bigint60;
      const hr = min2 / bigint60;
      const days2 = hr / bigint24;
      return {
        days: Number(days2),
        hours: Number(hr % bigint24),
        minutes: Number(min2 % bigint60),
        seconds: Number(sec % bigint60),
        millis: Number(ms % bigint1e3),
        nanos: Number(nanos2 % bigint1e6)
      };
    };
    format2 = (self) => {
      const duration = decode(self);
      if (duration.value._tag === "Infinity") {
        return "Infinity";
      }
      if (isZero(duration)) {
        return "0";
      }
      const fragments = parts(duration);
      const pieces = [];
      if (fragments.days !== 0) {
        pieces.push(`${fragments.days}d`);
      }
      if (fragments.hours !== 0) {
        pieces.push(`${fragments.hours}h`);
      }
      if (fragments.minutes !== 0) {
        pieces.push(`${fragments.minutes}m`);
      }
      if (fragments.seconds !== 0) {
        pieces.push(`${fragments.seconds}s`);
      }
      if (fragments.millis !== 0) {
        pieces.push(`${fragments.millis}ms`);
      }
      if (fragments.nanos !== 0) {
        pieces.push(`${fragments.nanos}ns`);
      }
      return pieces.join(" ");
    };
  }
});

// node_modules/effect/dist/esm/MutableRef.js
var TypeId6, MutableRefProto, make10, get5, set2;
var init_MutableRef = __esm({
  "node_modules/effect/dist/esm/MutableRef.js"() {
    init_Function();
    init_Inspectable();
    init_Pipeable();
    TypeId6 = /* @__PURE__ */ Symbol.for("effect/MutableRef");
    MutableRefProto = {
      [TypeId6]: TypeId6,
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "MutableRef",
          current: toJSON(this.current)
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    make10 = (value) => {
      const ref = Object.create(MutableRefProto);
      ref.current = value;
      return ref;
    };
    get5 = (self) => self.current;
    set2 = /* @__PURE__ */ dual(2, (self, value) => {
      self.current = value;
      return self;
    });
  }
});

// node_modules/effect/dist/esm/internal/fiberId.js
var FiberIdSymbolKey, FiberIdTypeId, OP_NONE, OP_RUNTIME, OP_COMPOSITE, emptyHash, None, Runtime, Composite, none3, isFiberId, ids, _fiberCounter, threadName, unsafeMake;
var init_fiberId = __esm({
  "node_modules/effect/dist/esm/internal/fiberId.js"() {
    init_Equal();
    init_Function();
    init_GlobalValue();
    init_Hash();
    init_HashSet();
    init_Inspectable();
    init_MutableRef();
    init_Predicate();
    FiberIdSymbolKey = "effect/FiberId";
    FiberIdTypeId = /* @__PURE__ */ Symbol.for(FiberIdSymbolKey);
    OP_NONE = "None";
    OP_RUNTIME = "Runtime";
    OP_COMPOSITE = "Composite";
    emptyHash = /* @__PURE__ */ string(`${FiberIdSymbolKey}-${OP_NONE}`);
    None = class {
      [FiberIdTypeId] = FiberIdTypeId;
      _tag = OP_NONE;
      id = -1;
      startTimeMillis = -1;
      [symbol]() {
        return emptyHash;
      }
      [symbol2](that) {
        return isFiberId(that) && that._tag === OP_NONE;
      }
      toString() {
        return format(this.toJSON());
      }
      toJSON() {
        return {
          _id: "FiberId",
          _tag: this._tag
        };
      }
      [NodeInspectSymbol]() {
        return this.toJSON();
      }
    };
    Runtime = class {
      id;
      startTimeMillis;
      [FiberIdTypeId] = FiberIdTypeId;
      _tag = OP_RUNTIME;
      constructor(id, startTimeMillis) {
        this.id = id;
        this.startTimeMillis = startTimeMillis;
      }
      [symbol]() {
        return cached(this, string(`${FiberIdSymbolKey}-${this._tag}-${this.id}-${this.startTimeMillis}`));
      }
      [symbol2](that) {
        return isFiberId(that) && that._tag === OP_RUNTIME && this.id === that.id && this.startTimeMillis === that.startTimeMillis;
      }
      toString() {
        return format(this.toJSON());
      }
      toJSON() {
        return {
          _id: "FiberId",
          _tag: this._tag,
          id: this.id,
          startTimeMillis: this.startTimeMillis
        };
      }
      [NodeInspectSymbol]() {
        return this.toJSON();
      }
    };
    Composite = class {
      left;
      right;
      [FiberIdTypeId] = FiberIdTypeId;
      _tag = OP_COMPOSITE;
      constructor(left3, right3) {
        this.left = left3;
        this.right = right3;
      }
      _hash;
      [symbol]() {
        return pipe(string(`${FiberIdSymbolKey}-${this._tag}`), combine(hash(this.left)), combine(hash(this.right)), cached(this));
      }
      [symbol2](that) {
        return isFiberId(that) && that._tag === OP_COMPOSITE && equals(this.left, that.left) && equals(this.right, that.right);
      }
      toString() {
        return format(this.toJSON());
      }
      toJSON() {
        return {
          _id: "FiberId",
          _tag: this._tag,
          left: toJSON(this.left),
          right: toJSON(this.right)
        };
      }
      [NodeInspectSymbol]() {
        return this.toJSON();
      }
    };
    none3 = /* @__PURE__ */ new None();
    isFiberId = (self) => hasProperty(self, FiberIdTypeId);
    ids = (self) => {
      switch (self._tag) {
        case OP_NONE: {
          return empty5();
        }
        case OP_RUNTIME: {
          return make7(self.id);
        }
        case OP_COMPOSITE: {
          return pipe(ids(self.left), union3(ids(self.right)));
        }
      }
    };
    _fiberCounter = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/Fiber/Id/_fiberCounter"), () => make10(0));
    threadName = (self) => {
      const identifiers = Array.from(ids(self)).map((n) => `#${n}`).join(",");
      return identifiers;
    };
    unsafeMake = () => {
      const id = get5(_fiberCounter);
      pipe(_fiberCounter, set2(id + 1));
      return new Runtime(id, Date.now());
    };
  }
});

// node_modules/effect/dist/esm/FiberId.js
var none4, threadName2, unsafeMake2;
var init_FiberId = __esm({
  "node_modules/effect/dist/esm/FiberId.js"() {
    init_fiberId();
    none4 = none3;
    threadName2 = threadName;
    unsafeMake2 = unsafeMake;
  }
});

// node_modules/effect/dist/esm/HashMap.js
var empty9, fromIterable6, isEmpty4, get6, set3, keys2, modifyAt2, map6, forEach3, reduce6;
var init_HashMap = __esm({
  "node_modules/effect/dist/esm/HashMap.js"() {
    init_hashMap();
    empty9 = empty3;
    fromIterable6 = fromIterable3;
    isEmpty4 = isEmpty2;
    get6 = get2;
    set3 = set;
    keys2 = keys;
    modifyAt2 = modifyAt;
    map6 = map3;
    forEach3 = forEach;
    reduce6 = reduce2;
  }
});

// node_modules/effect/dist/esm/List.js
var TypeId7, toArray2, getEquivalence3, _equivalence4, ConsProto, makeCons, NilHash, NilProto, _Nil, isList, isNil, isCons, nil, cons, empty10, of3, appendAll3, prepend3, prependAll, reduce7, reverse3;
var init_List = __esm({
  "node_modules/effect/dist/esm/List.js"() {
    init_Array();
    init_Equal();
    init_Equivalence();
    init_Function();
    init_Hash();
    init_Inspectable();
    init_Pipeable();
    init_Predicate();
    TypeId7 = /* @__PURE__ */ Symbol.for("effect/List");
    toArray2 = (self) => fromIterable(self);
    getEquivalence3 = (isEquivalent) => mapInput(getEquivalence(isEquivalent), toArray2);
    _equivalence4 = /* @__PURE__ */ getEquivalence3(equals);
    ConsProto = {
      [TypeId7]: TypeId7,
      _tag: "Cons",
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "List",
          _tag: "Cons",
          values: toArray2(this).map(toJSON)
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      [symbol2](that) {
        return isList(that) && this._tag === that._tag && _equivalence4(this, that);
      },
      [symbol]() {
        return cached(this, array2(toArray2(this)));
      },
      [Symbol.iterator]() {
        let done4 = false;
        let self = this;
        return {
          next() {
            if (done4) {
              return this.return();
            }
            if (self._tag === "Nil") {
              done4 = true;
              return this.return();
            }
            const value = self.head;
            self = self.tail;
            return {
              done: done4,
              value
            };
          },
          return(value) {
            if (!done4) {
              done4 = true;
            }
            return {
              done: true,
              value
            };
          }
        };
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    makeCons = (head4, tail) => {
      const cons2 = Object.create(ConsProto);
      cons2.head = head4;
      cons2.tail = tail;
      return cons2;
    };
    NilHash = /* @__PURE__ */ string("Nil");
    NilProto = {
      [TypeId7]: TypeId7,
      _tag: "Nil",
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "List",
          _tag: "Nil"
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      [symbol]() {
        return NilHash;
      },
      [symbol2](that) {
        return isList(that) && this._tag === that._tag;
      },
      [Symbol.iterator]() {
        return {
          next() {
            return {
              done: true,
              value: void 0
            };
          }
        };
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    _Nil = /* @__PURE__ */ Object.create(NilProto);
    isList = (u) => hasProperty(u, TypeId7);
    isNil = (self) => self._tag === "Nil";
    isCons = (self) => self._tag === "Cons";
    nil = () => _Nil;
    cons = (head4, tail) => makeCons(head4, tail);
    empty10 = nil;
    of3 = (value) => makeCons(value, _Nil);
    appendAll3 = /* @__PURE__ */ dual(2, (self, that) => prependAll(that, self));
    prepend3 = /* @__PURE__ */ dual(2, (self, element) => cons(element, self));
    prependAll = /* @__PURE__ */ dual(2, (self, prefix) => {
      if (isNil(self)) {
        return prefix;
      } else if (isNil(prefix)) {
        return self;
      } else {
        const result = makeCons(prefix.head, self);
        let curr = result;
        let that = prefix.tail;
        while (!isNil(that)) {
          const temp = makeCons(that.head, self);
          curr.tail = temp;
          curr = temp;
          that = that.tail;
        }
        return result;
      }
    });
    reduce7 = /* @__PURE__ */ dual(3, (self, zero2, f) => {
      let acc = zero2;
      let these = self;
      while (!isNil(these)) {
        acc = f(acc, these.head);
        these = these.tail;
      }
      return acc;
    });
    reverse3 = (self) => {
      let result = empty10();
      let these = self;
      while (!isNil(these)) {
        result = prepend3(result, these.head);
        these = these.tail;
      }
      return result;
    };
  }
});

// node_modules/effect/dist/esm/internal/data.js
var ArrayProto, Structural;
var init_data = __esm({
  "node_modules/effect/dist/esm/internal/data.js"() {
    init_Equal();
    init_Hash();
    init_effectable();
    ArrayProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(Array.prototype), {
      [symbol]() {
        return cached(this, array2(this));
      },
      [symbol2](that) {
        if (Array.isArray(that) && this.length === that.length) {
          return this.every((v, i) => equals(v, that[i]));
        } else {
          return false;
        }
      }
    });
    Structural = /* @__PURE__ */ (function() {
      function Structural2(args2) {
        if (args2) {
          Object.assign(this, args2);
        }
      }
      Structural2.prototype = StructuralPrototype;
      return Structural2;
    })();
  }
});

// node_modules/effect/dist/esm/internal/differ/contextPatch.js
function variance2(a) {
  return a;
}
var ContextPatchTypeId, PatchProto, EmptyProto, _empty5, empty11, AndThenProto, makeAndThen, AddServiceProto, makeAddService, RemoveServiceProto, makeRemoveService, UpdateServiceProto, makeUpdateService, diff, combine3, patch;
var init_contextPatch = __esm({
  "node_modules/effect/dist/esm/internal/differ/contextPatch.js"() {
    init_Chunk();
    init_Equal();
    init_Function();
    init_context();
    init_data();
    ContextPatchTypeId = /* @__PURE__ */ Symbol.for("effect/DifferContextPatch");
    PatchProto = {
      ...Structural.prototype,
      [ContextPatchTypeId]: {
        _Value: variance2,
        _Patch: variance2
      }
    };
    EmptyProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto), {
      _tag: "Empty"
    });
    _empty5 = /* @__PURE__ */ Object.create(EmptyProto);
    empty11 = () => _empty5;
    AndThenProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto), {
      _tag: "AndThen"
    });
    makeAndThen = (first2, second) => {
      const o = Object.create(AndThenProto);
      o.first = first2;
      o.second = second;
      return o;
    };
    AddServiceProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto), {
      _tag: "AddService"
    });
    makeAddService = (key, service) => {
      const o = Object.create(AddServiceProto);
      o.key = key;
      o.service = service;
      return o;
    };
    RemoveServiceProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto), {
      _tag: "RemoveService"
    });
    makeRemoveService = (key) => {
      const o = Object.create(RemoveServiceProto);
      o.key = key;
      return o;
    };
    UpdateServiceProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto), {
      _tag: "UpdateService"
    });
    makeUpdateService = (key, update3) => {
      const o = Object.create(UpdateServiceProto);
      o.key = key;
      o.update = update3;
      return o;
    };
    diff = (oldValue, newValue) => {
      const missingServices = new Map(oldValue.unsafeMap);
      let patch9 = empty11();
      for (const [tag, newService] of newValue.unsafeMap.entries()) {
        if (missingServices.has(tag)) {
          const old = missingServices.get(tag);
          missingServices.delete(tag);
          if (!equals(old, newService)) {
            patch9 = combine3(makeUpdateService(tag, () => newService))(patch9);
          }
        } else {
          missingServices.delete(tag);
          patch9 = combine3(makeAddService(tag, newService))(patch9);
        }
      }
      for (const [tag] of missingServices.entries()) {
        patch9 = combine3(makeRemoveService(tag))(patch9);
      }
      return patch9;
    };
    combine3 = /* @__PURE__ */ dual(2, (self, that) => makeAndThen(self, that));
    patch = /* @__PURE__ */ dual(2, (self, context2) => {
      if (self._tag === "Empty") {
        return context2;
      }
      let wasServiceUpdated = false;
      let patches = of2(self);
      const updatedContext = new Map(context2.unsafeMap);
      while (isNonEmpty(patches)) {
        const head4 = headNonEmpty2(patches);
        const tail = tailNonEmpty2(patches);
        switch (head4._tag) {
          case "Empty": {
            patches = tail;
            break;
          }
          case "AddService": {
            updatedContext.set(head4.key, head4.service);
            patches = tail;
            break;
          }
          case "AndThen": {
            patches = prepend2(prepend2(tail, head4.second), head4.first);
            break;
          }
          case "RemoveService": {
            updatedContext.delete(head4.key);
            patches = tail;
            break;
          }
          case "UpdateService": {
            updatedContext.set(head4.key, head4.update(updatedContext.get(head4.key)));
            wasServiceUpdated = true;
            patches = tail;
            break;
          }
        }
      }
      if (!wasServiceUpdated) {
        return makeContext(updatedContext);
      }
      const map10 = /* @__PURE__ */ new Map();
      for (const [tag] of context2.unsafeMap) {
        if (updatedContext.has(tag)) {
          map10.set(tag, updatedContext.get(tag));
          updatedContext.delete(tag);
        }
      }
      for (const [tag, s] of updatedContext) {
        map10.set(tag, s);
      }
      return makeContext(map10);
    });
  }
});

// node_modules/effect/dist/esm/internal/differ/hashSetPatch.js
function variance3(a) {
  return a;
}
var HashSetPatchTypeId, PatchProto2, EmptyProto2, _empty6, empty12, AndThenProto2, makeAndThen2, AddProto, makeAdd, RemoveProto, makeRemove, diff2, combine4, patch2;
var init_hashSetPatch = __esm({
  "node_modules/effect/dist/esm/internal/differ/hashSetPatch.js"() {
    init_Chunk();
    init_Function();
    init_HashSet();
    init_data();
    HashSetPatchTypeId = /* @__PURE__ */ Symbol.for("effect/DifferHashSetPatch");
    PatchProto2 = {
      ...Structural.prototype,
      [HashSetPatchTypeId]: {
        _Value: variance3,
        _Key: variance3,
        _Patch: variance3
      }
    };
    EmptyProto2 = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto2), {
      _tag: "Empty"
    });
    _empty6 = /* @__PURE__ */ Object.create(EmptyProto2);
    empty12 = () => _empty6;
    AndThenProto2 = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto2), {
      _tag: "AndThen"
    });
    makeAndThen2 = (first2, second) => {
      const o = Object.create(AndThenProto2);
      o.first = first2;
      o.second = second;
      return o;
    };
    AddProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto2), {
      _tag: "Add"
    });
    makeAdd = (value) => {
      const o = Object.create(AddProto);
      o.value = value;
      return o;
    };
    RemoveProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto2), {
      _tag: "Remove"
    });
    makeRemove = (value) => {
      const o = Object.create(RemoveProto);
      o.value = value;
      return o;
    };
    diff2 = (oldValue, newValue) => {
      const [removed, patch9] = reduce4([oldValue, empty12()], ([set5, patch10], value) => {
        if (has3(value)(set5)) {
          return [remove4(value)(set5), patch10];
        }
        return [set5, combine4(makeAdd(value))(patch10)];
      })(newValue);
      return reduce4(patch9, (patch10, value) => combine4(makeRemove(value))(patch10))(removed);
    };
    combine4 = /* @__PURE__ */ dual(2, (self, that) => makeAndThen2(self, that));
    patch2 = /* @__PURE__ */ dual(2, (self, oldValue) => {
      if (self._tag === "Empty") {
        return oldValue;
      }
      let set5 = oldValue;
      let patches = of2(self);
      while (isNonEmpty(patches)) {
        const head4 = headNonEmpty2(patches);
        const tail = tailNonEmpty2(patches);
        switch (head4._tag) {
          case "Empty": {
            patches = tail;
            break;
          }
          case "AndThen": {
            patches = prepend2(head4.first)(prepend2(head4.second)(tail));
            break;
          }
          case "Add": {
            set5 = add2(head4.value)(set5);
            patches = tail;
            break;
          }
          case "Remove": {
            set5 = remove4(head4.value)(set5);
            patches = tail;
          }
        }
      }
      return set5;
    });
  }
});

// node_modules/effect/dist/esm/internal/differ/readonlyArrayPatch.js
function variance4(a) {
  return a;
}
var ReadonlyArrayPatchTypeId, PatchProto3, EmptyProto3, _empty7, empty13, AndThenProto3, makeAndThen3, AppendProto, makeAppend, SliceProto, makeSlice, UpdateProto, makeUpdate, diff3, combine5, patch3;
var init_readonlyArrayPatch = __esm({
  "node_modules/effect/dist/esm/internal/differ/readonlyArrayPatch.js"() {
    init_Array();
    init_Equal();
    init_Function();
    init_data();
    ReadonlyArrayPatchTypeId = /* @__PURE__ */ Symbol.for("effect/DifferReadonlyArrayPatch");
    PatchProto3 = {
      ...Structural.prototype,
      [ReadonlyArrayPatchTypeId]: {
        _Value: variance4,
        _Patch: variance4
      }
    };
    EmptyProto3 = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto3), {
      _tag: "Empty"
    });
    _empty7 = /* @__PURE__ */ Object.create(EmptyProto3);
    empty13 = () => _empty7;
    AndThenProto3 = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto3), {
      _tag: "AndThen"
    });
    makeAndThen3 = (first2, second) => {
      const o = Object.create(AndThenProto3);
      o.first = first2;
      o.second = second;
      return o;
    };
    AppendProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto3), {
      _tag: "Append"
    });
    makeAppend = (values3) => {
      const o = Object.create(AppendProto);
      o.values = values3;
      return o;
    };
    SliceProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto3), {
      _tag: "Slice"
    });
    makeSlice = (from, until) => {
      const o = Object.create(SliceProto);
      o.from = from;
      o.until = until;
      return o;
    };
    UpdateProto = /* @__PURE__ */ Object.assign(/* @__PURE__ */ Object.create(PatchProto3), {
      _tag: "Update"
    });
    makeUpdate = (index, patch9) => {
      const o = Object.create(UpdateProto);
      o.index = index;
      o.patch = patch9;
      return o;
    };
    diff3 = (options) => {
      let i = 0;
      let patch9 = empty13();
      while (i < options.oldValue.length && i < options.newValue.length) {
        const oldElement = options.oldValue[i];
        const newElement = options.newValue[i];
        const valuePatch = options.differ.diff(oldElement, newElement);
        if (!equals(valuePatch, options.differ.empty)) {
          patch9 = combine5(patch9, makeUpdate(i, valuePatch));
        }
        i = i + 1;
      }
      if (i < options.oldValue.length) {
        patch9 = combine5(patch9, makeSlice(0, i));
      }
      if (i < options.newValue.length) {
        patch9 = combine5(patch9, makeAppend(drop(i)(options.newValue)));
      }
      return patch9;
    };
    combine5 = /* @__PURE__ */ dual(2, (self, that) => makeAndThen3(self, that));
    patch3 = /* @__PURE__ */ dual(3, (self, oldValue, differ3) => {
      if (self._tag === "Empty") {
        return oldValue;
      }
      let readonlyArray2 = oldValue.slice();
      let patches = of(self);
      while (isNonEmptyArray2(patches)) {
        const head4 = headNonEmpty(patches);
        const tail = tailNonEmpty(patches);
        switch (head4._tag) {
          case "Empty": {
            patches = tail;
            break;
          }
          case "AndThen": {
            tail.unshift(head4.first, head4.second);
            patches = tail;
            break;
          }
          case "Append": {
            for (const value of head4.values) {
              readonlyArray2.push(value);
            }
            patches = tail;
            break;
          }
          case "Slice": {
            readonlyArray2 = readonlyArray2.slice(head4.from, head4.until);
            patches = tail;
            break;
          }
          case "Update": {
            readonlyArray2[head4.index] = differ3.patch(head4.patch, readonlyArray2[head4.index]);
            patches = tail;
            break;
          }
        }
      }
      return readonlyArray2;
    });
  }
});

// node_modules/effect/dist/esm/internal/differ.js
var DifferTypeId, DifferProto, make13, environment, hashSet, readonlyArray, update, updateWith;
var init_differ = __esm({
  "node_modules/effect/dist/esm/internal/differ.js"() {
    init_Equal();
    init_Function();
    init_Pipeable();
    init_contextPatch();
    init_hashSetPatch();
    init_readonlyArrayPatch();
    DifferTypeId = /* @__PURE__ */ Symbol.for("effect/Differ");
    DifferProto = {
      [DifferTypeId]: {
        _P: identity,
        _V: identity
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    make13 = (params) => {
      const differ3 = Object.create(DifferProto);
      differ3.empty = params.empty;
      differ3.diff = params.diff;
      differ3.combine = params.combine;
      differ3.patch = params.patch;
      return differ3;
    };
    environment = () => make13({
      empty: empty11(),
      combine: (first2, second) => combine3(second)(first2),
      diff: (oldValue, newValue) => diff(oldValue, newValue),
      patch: (patch9, oldValue) => patch(oldValue)(patch9)
    });
    hashSet = () => make13({
      empty: empty12(),
      combine: (first2, second) => combine4(second)(first2),
      diff: (oldValue, newValue) => diff2(oldValue, newValue),
      patch: (patch9, oldValue) => patch2(oldValue)(patch9)
    });
    readonlyArray = (differ3) => make13({
      empty: empty13(),
      combine: (first2, second) => combine5(first2, second),
      diff: (oldValue, newValue) => diff3({
        oldValue,
        newValue,
        differ: differ3
      }),
      patch: (patch9, oldValue) => patch3(patch9, oldValue, differ3)
    });
    update = () => updateWith((_, a) => a);
    updateWith = (f) => make13({
      empty: identity,
      combine: (first2, second) => {
        if (first2 === identity) {
          return second;
        }
        if (second === identity) {
          return first2;
        }
        return (a) => second(first2(a));
      },
      diff: (oldValue, newValue) => {
        if (equals(oldValue, newValue)) {
          return identity;
        }
        return constant(newValue);
      },
      patch: (patch9, oldValue) => f(oldValue, patch9(oldValue))
    });
  }
});

// node_modules/effect/dist/esm/internal/runtimeFlagsPatch.js
var BIT_MASK, BIT_SHIFT, active, enabled, make14, empty14, enable, disable, exclude, andThen, invert;
var init_runtimeFlagsPatch = __esm({
  "node_modules/effect/dist/esm/internal/runtimeFlagsPatch.js"() {
    init_Function();
    BIT_MASK = 255;
    BIT_SHIFT = 8;
    active = (patch9) => patch9 & BIT_MASK;
    enabled = (patch9) => patch9 >> BIT_SHIFT & BIT_MASK;
    make14 = (active2, enabled2) => (active2 & BIT_MASK) + ((enabled2 & active2 & BIT_MASK) << BIT_SHIFT);
    empty14 = /* @__PURE__ */ make14(0, 0);
    enable = (flag) => make14(flag, flag);
    disable = (flag) => make14(flag, 0);
    exclude = /* @__PURE__ */ dual(2, (self, flag) => make14(active(self) & ~flag, enabled(self)));
    andThen = /* @__PURE__ */ dual(2, (self, that) => self | that);
    invert = (n) => ~n >>> 0 & BIT_MASK;
  }
});

// node_modules/effect/dist/esm/internal/runtimeFlags.js
var None2, Interruption, OpSupervision, RuntimeMetrics, WindDown, CooperativeYielding, cooperativeYielding, enable2, interruptible, interruption, isEnabled, make15, none5, runtimeMetrics, windDown, diff4, patch4, differ;
var init_runtimeFlags = __esm({
  "node_modules/effect/dist/esm/internal/runtimeFlags.js"() {
    init_Function();
    init_differ();
    init_runtimeFlagsPatch();
    None2 = 0;
    Interruption = 1 << 0;
    OpSupervision = 1 << 1;
    RuntimeMetrics = 1 << 2;
    WindDown = 1 << 4;
    CooperativeYielding = 1 << 5;
    cooperativeYielding = (self) => isEnabled(self, CooperativeYielding);
    enable2 = /* @__PURE__ */ dual(2, (self, flag) => self | flag);
    interruptible = (self) => interruption(self) && !windDown(self);
    interruption = (self) => isEnabled(self, Interruption);
    isEnabled = /* @__PURE__ */ dual(2, (self, flag) => (self & flag) !== 0);
    make15 = (...flags) => flags.reduce((a, b) => a | b, 0);
    none5 = /* @__PURE__ */ make15(None2);
    runtimeMetrics = (self) => isEnabled(self, RuntimeMetrics);
    windDown = (self) => isEnabled(self, WindDown);
    diff4 = /* @__PURE__ */ dual(2, (self, that) => make14(self ^ that, that));
    patch4 = /* @__PURE__ */ dual(2, (self, patch9) => self & (invert(active(patch9)) | enabled(patch9)) | active(patch9) & enabled(patch9));
    differ = /* @__PURE__ */ make13({
      empty: empty14,
      diff: (oldValue, newValue) => diff4(oldValue, newValue),
      combine: (first2, second) => andThen(second)(first2),
      patch: (_patch, oldValue) => patch4(oldValue, _patch)
    });
  }
});

// node_modules/effect/dist/esm/RuntimeFlagsPatch.js
var enable3, disable2, exclude2;
var init_RuntimeFlagsPatch = __esm({
  "node_modules/effect/dist/esm/RuntimeFlagsPatch.js"() {
    init_runtimeFlagsPatch();
    enable3 = enable;
    disable2 = disable;
    exclude2 = exclude;
  }
});

// node_modules/effect/dist/esm/internal/blockedRequests.js
var par, seq, flatten2, step, merge4, EntryTypeId, EntryImpl, blockedRequestVariance, RequestBlockParallelTypeId, parallelVariance, ParallelImpl, parallelCollectionEmpty, parallelCollectionAdd, parallelCollectionCombine, parallelCollectionIsEmpty, parallelCollectionKeys, parallelCollectionToSequentialCollection, SequentialCollectionTypeId, sequentialVariance, SequentialImpl, sequentialCollectionMake, sequentialCollectionCombine, sequentialCollectionKeys, sequentialCollectionToChunk;
var init_blockedRequests = __esm({
  "node_modules/effect/dist/esm/internal/blockedRequests.js"() {
    init_Chunk();
    init_Equal();
    init_HashMap();
    init_List();
    init_Option();
    par = (self, that) => ({
      _tag: "Par",
      left: self,
      right: that
    });
    seq = (self, that) => ({
      _tag: "Seq",
      left: self,
      right: that
    });
    flatten2 = (self) => {
      let current = of3(self);
      let updated = empty10();
      while (1) {
        const [parallel2, sequential3] = reduce7(current, [parallelCollectionEmpty(), empty10()], ([parallel3, sequential4], blockedRequest) => {
          const [par2, seq2] = step(blockedRequest);
          return [parallelCollectionCombine(parallel3, par2), appendAll3(sequential4, seq2)];
        });
        updated = merge4(updated, parallel2);
        if (isNil(sequential3)) {
          return reverse3(updated);
        }
        current = sequential3;
      }
      throw new Error("BUG: BlockedRequests.flatten - please report an issue at https://github.com/Effect-TS/effect/issues");
    };
    step = (requests) => {
      let current = requests;
      let parallel2 = parallelCollectionEmpty();
      let stack = empty10();
      let sequential3 = empty10();
      while (1) {
        switch (current._tag) {
          case "Empty": {
            if (isNil(stack)) {
              return [parallel2, sequential3];
            }
            current = stack.head;
            stack = stack.tail;
            break;
          }
          case "Par": {
            stack = cons(current.right, stack);
            current = current.left;
            break;
          }
          case "Seq": {
            const left3 = current.left;
            const right3 = current.right;
            switch (left3._tag) {
              case "Empty": {
                current = right3;
                break;
              }
              case "Par": {
                const l = left3.left;
                const r = left3.right;
                current = par(seq(l, right3), seq(r, right3));
                break;
              }
              case "Seq": {
                const l = left3.left;
                const r = left3.right;
                current = seq(l, seq(r, right3));
                break;
              }
              case "Single": {
                current = left3;
                sequential3 = cons(right3, sequential3);
                break;
              }
            }
            break;
          }
          case "Single": {
            parallel2 = parallelCollectionAdd(parallel2, current);
            if (isNil(stack)) {
              return [parallel2, sequential3];
            }
            current = stack.head;
            stack = stack.tail;
            break;
          }
        }
      }
      throw new Error("BUG: BlockedRequests.step - please report an issue at https://github.com/Effect-TS/effect/issues");
    };
    merge4 = (sequential3, parallel2) => {
      if (isNil(sequential3)) {
        return of3(parallelCollectionToSequentialCollection(parallel2));
      }
      if (parallelCollectionIsEmpty(parallel2)) {
        return sequential3;
      }
      const seqHeadKeys = sequentialCollectionKeys(sequential3.head);
      const parKeys = parallelCollectionKeys(parallel2);
      if (seqHeadKeys.length === 1 && parKeys.length === 1 && equals(seqHeadKeys[0], parKeys[0])) {
        return cons(sequentialCollectionCombine(sequential3.head, parallelCollectionToSequentialCollection(parallel2)), sequential3.tail);
      }
      return cons(parallelCollectionToSequentialCollection(parallel2), sequential3);
    };
    EntryTypeId = /* @__PURE__ */ Symbol.for("effect/RequestBlock/Entry");
    EntryImpl = class {
      request;
      result;
      listeners;
      ownerId;
      state;
      [EntryTypeId] = blockedRequestVariance;
      constructor(request, result, listeners, ownerId, state) {
        this.request = request;
        this.result = result;
        this.listeners = listeners;
        this.ownerId = ownerId;
        this.state = state;
      }
    };
    blockedRequestVariance = {
      /* c8 ignore next */
      _R: (_) => _
    };
    RequestBlockParallelTypeId = /* @__PURE__ */ Symbol.for("effect/RequestBlock/RequestBlockParallel");
    parallelVariance = {
      /* c8 ignore next */
      _R: (_) => _
    };
    ParallelImpl = class {
      map;
      [RequestBlockParallelTypeId] = parallelVariance;
      constructor(map10) {
        this.map = map10;
      }
    };
    parallelCollectionEmpty = () => new ParallelImpl(empty9());
    parallelCollectionAdd = (self, blockedRequest) => new ParallelImpl(modifyAt2(self.map, blockedRequest.dataSource, (_) => orElseSome(map(_, append2(blockedRequest.blockedRequest)), () => of2(blockedRequest.blockedRequest))));
    parallelCollectionCombine = (self, that) => new ParallelImpl(reduce6(self.map, that.map, (map10, value, key) => set3(map10, key, match2(get6(map10, key), {
      onNone: () => value,
      onSome: (other) => appendAll2(value, other)
    }))));
    parallelCollectionIsEmpty = (self) => isEmpty4(self.map);
    parallelCollectionKeys = (self) => Array.from(keys2(self.map));
    parallelCollectionToSequentialCollection = (self) => sequentialCollectionMake(map6(self.map, (x) => of2(x)));
    SequentialCollectionTypeId = /* @__PURE__ */ Symbol.for("effect/RequestBlock/RequestBlockSequential");
    sequentialVariance = {
      /* c8 ignore next */
      _R: (_) => _
    };
    SequentialImpl = class {
      map;
      [SequentialCollectionTypeId] = sequentialVariance;
      constructor(map10) {
        this.map = map10;
      }
    };
    sequentialCollectionMake = (map10) => new SequentialImpl(map10);
    sequentialCollectionCombine = (self, that) => new SequentialImpl(reduce6(that.map, self.map, (map10, value, key) => set3(map10, key, match2(get6(map10, key), {
      onNone: () => empty2(),
      onSome: (a) => appendAll2(a, value)
    }))));
    sequentialCollectionKeys = (self) => Array.from(keys2(self.map));
    sequentialCollectionToChunk = (self) => Array.from(self.map);
  }
});

// node_modules/effect/dist/esm/internal/opCodes/deferred.js
var OP_STATE_PENDING, OP_STATE_DONE;
var init_deferred = __esm({
  "node_modules/effect/dist/esm/internal/opCodes/deferred.js"() {
    OP_STATE_PENDING = "Pending";
    OP_STATE_DONE = "Done";
  }
});

// node_modules/effect/dist/esm/internal/deferred.js
var DeferredSymbolKey, DeferredTypeId, deferredVariance, pending, done;
var init_deferred2 = __esm({
  "node_modules/effect/dist/esm/internal/deferred.js"() {
    init_deferred();
    DeferredSymbolKey = "effect/Deferred";
    DeferredTypeId = /* @__PURE__ */ Symbol.for(DeferredSymbolKey);
    deferredVariance = {
      /* c8 ignore next */
      _E: (_) => _,
      /* c8 ignore next */
      _A: (_) => _
    };
    pending = (joiners) => {
      return {
        _tag: OP_STATE_PENDING,
        joiners
      };
    };
    done = (effect) => {
      return {
        _tag: OP_STATE_DONE,
        effect
      };
    };
  }
});

// node_modules/effect/dist/esm/internal/singleShotGen.js
var SingleShotGen2;
var init_singleShotGen = __esm({
  "node_modules/effect/dist/esm/internal/singleShotGen.js"() {
    SingleShotGen2 = class _SingleShotGen {
      self;
      called = false;
      constructor(self) {
        this.self = self;
      }
      next(a) {
        return this.called ? {
          value: a,
          done: true
        } : (this.called = true, {
          value: this.self,
          done: false
        });
      }
      return(a) {
        return {
          value: a,
          done: true
        };
      }
      throw(e) {
        throw e;
      }
      [Symbol.iterator]() {
        return new _SingleShotGen(this.self);
      }
    };
  }
});

// node_modules/effect/dist/esm/internal/core.js
var blocked, runRequestBlock, EffectTypeId2, RevertFlags, EffectPrimitive, EffectPrimitiveFailure, EffectPrimitiveSuccess, isEffect, withFiberRuntime, acquireUseRelease, as, asVoid, custom, unsafeAsync, asyncInterrupt, async_, catchAll, originalSymbol, capture, die2, dieMessage, either2, exit, fail2, failSync, failCause, failCauseSync, fiberId, fiberIdWith, flatMap6, step2, flatten3, matchCause, matchCauseEffect, matchEffect, forEachSequential, forEachSequentialDiscard, interruptible2, map8, mapBoth, mapError, onExit, onInterrupt, succeed, suspend, sync, tap, transplant, uninterruptible, uninterruptibleMask, void_, updateRuntimeFlags, whileLoop, fromIterator, yieldNow, zip2, zipLeft, zipRight, never, interruptFiber, interruptAsFiber, logLevelAll, logLevelFatal, logLevelError, logLevelWarning, logLevelInfo, logLevelDebug, logLevelTrace, logLevelNone, FiberRefSymbolKey, FiberRefTypeId, fiberRefVariance, fiberRefGet, fiberRefGetWith, fiberRefSet, fiberRefModify, RequestResolverSymbolKey, RequestResolverTypeId, requestResolverVariance, RequestResolverImpl, isRequestResolver, fiberRefLocally, fiberRefUnsafeMake, fiberRefUnsafeMakeHashSet, fiberRefUnsafeMakeReadonlyArray, fiberRefUnsafeMakeContext, fiberRefUnsafeMakePatch, fiberRefUnsafeMakeRuntimeFlags, currentContext, currentSchedulingPriority, currentMaxOpsBeforeYield, currentLogAnnotations, currentLogLevel, currentLogSpan, withSchedulingPriority, currentUnhandledErrorLogLevel, currentVersionMismatchErrorLogLevel, currentMetricLabels, currentForkScopeOverride, currentInterruptedCause, currentTracerEnabled, currentTracerTimingEnabled, currentTracerSpanAnnotations, currentTracerSpanLinks, ScopeTypeId, CloseableScopeTypeId, scopeAddFinalizer, scopeClose, scopeFork, YieldableError, makeException, RuntimeExceptionTypeId, RuntimeException, InterruptedExceptionTypeId, InterruptedException, isInterruptedException, IllegalArgumentExceptionTypeId, IllegalArgumentException, NoSuchElementExceptionTypeId, NoSuchElementException, InvalidPubSubCapacityExceptionTypeId, InvalidPubSubCapacityException, ExceededCapacityExceptionTypeId, ExceededCapacityException, TimeoutExceptionTypeId, TimeoutException, UnknownExceptionTypeId, UnknownException, exitIsExit, exitIsFailure, exitAs, exitAsVoid, exitCollectAll, exitFail, exitFailCause, exitInterrupt, exitMap, exitMatch, exitSucceed, exitVoid, exitZipWith, exitCollectAllInternal, deferredUnsafeMake, deferredAwait, deferredUnsafeDone, deferredInterruptJoiner, constContext, context, contextWithEffect, provideContext, currentSpanFromFiber, NoopSpanProto, noopSpan;
var init_core = __esm({
  "node_modules/effect/dist/esm/internal/core.js"() {
    init_Array();
    init_Chunk();
    init_Context();
    init_Either();
    init_Equal();
    init_FiberId();
    init_Function();
    init_GlobalValue();
    init_Hash();
    init_HashMap();
    init_Inspectable();
    init_List();
    init_MutableRef();
    init_Option();
    init_Pipeable();
    init_Predicate();
    init_RuntimeFlagsPatch();
    init_Utils();
    init_cause2();
    init_deferred2();
    init_differ();
    init_effectable();
    init_errors();
    init_deferred();
    init_effect();
    init_runtimeFlags();
    init_singleShotGen();
    blocked = (blockedRequests, _continue) => {
      const effect = new EffectPrimitive("Blocked");
      effect.effect_instruction_i0 = blockedRequests;
      effect.effect_instruction_i1 = _continue;
      return effect;
    };
    runRequestBlock = (blockedRequests) => {
      const effect = new EffectPrimitive("RunBlocked");
      effect.effect_instruction_i0 = blockedRequests;
      return effect;
    };
    EffectTypeId2 = /* @__PURE__ */ Symbol.for("effect/Effect");
    RevertFlags = class {
      patch;
      op;
      _op = OP_REVERT_FLAGS;
      constructor(patch9, op) {
        this.patch = patch9;
        this.op = op;
      }
    };
    EffectPrimitive = class {
      _op;
      effect_instruction_i0 = void 0;
      effect_instruction_i1 = void 0;
      effect_instruction_i2 = void 0;
      trace = void 0;
      [EffectTypeId2] = effectVariance;
      constructor(_op) {
        this._op = _op;
      }
      [symbol2](that) {
        return this === that;
      }
      [symbol]() {
        return cached(this, random(this));
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
      toJSON() {
        return {
          _id: "Effect",
          _op: this._op,
          effect_instruction_i0: toJSON(this.effect_instruction_i0),
          effect_instruction_i1: toJSON(this.effect_instruction_i1),
          effect_instruction_i2: toJSON(this.effect_instruction_i2)
        };
      }
      toString() {
        return format(this.toJSON());
      }
      [NodeInspectSymbol]() {
        return this.toJSON();
      }
      [Symbol.iterator]() {
        return new SingleShotGen2(new YieldWrap(this));
      }
    };
    EffectPrimitiveFailure = class {
      _op;
      effect_instruction_i0 = void 0;
      effect_instruction_i1 = void 0;
      effect_instruction_i2 = void 0;
      trace = void 0;
      [EffectTypeId2] = effectVariance;
      constructor(_op) {
        this._op = _op;
        this._tag = _op;
      }
      [symbol2](that) {
        return exitIsExit(that) && that._op === "Failure" && // @ts-expect-error
        equals(this.effect_instruction_i0, that.effect_instruction_i0);
      }
      [symbol]() {
        return pipe(
          // @ts-expect-error
          string(this._tag),
          // @ts-expect-error
          combine(hash(this.effect_instruction_i0)),
          cached(this)
        );
      }
      get cause() {
        return this.effect_instruction_i0;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
      toJSON() {
        return {
          _id: "Exit",
          _tag: this._op,
          cause: this.cause.toJSON()
        };
      }
      toString() {
        return format(this.toJSON());
      }
      [NodeInspectSymbol]() {
        return this.toJSON();
      }
      [Symbol.iterator]() {
        return new SingleShotGen2(new YieldWrap(this));
      }
    };
    EffectPrimitiveSuccess = class {
      _op;
      effect_instruction_i0 = void 0;
      effect_instruction_i1 = void 0;
      effect_instruction_i2 = void 0;
      trace = void 0;
      [EffectTypeId2] = effectVariance;
      constructor(_op) {
        this._op = _op;
        this._tag = _op;
      }
      [symbol2](that) {
        return exitIsExit(that) && that._op === "Success" && // @ts-expect-error
        equals(this.effect_instruction_i0, that.effect_instruction_i0);
      }
      [symbol]() {
        return pipe(
          // @ts-expect-error
          string(this._tag),
          // @ts-expect-error
          combine(hash(this.effect_instruction_i0)),
          cached(this)
        );
      }
      get value() {
        return this.effect_instruction_i0;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
      toJSON() {
        return {
          _id: "Exit",
          _tag: this._op,
          value: toJSON(this.value)
        };
      }
      toString() {
        return format(this.toJSON());
      }
      [NodeInspectSymbol]() {
        return this.toJSON();
      }
      [Symbol.iterator]() {
        return new SingleShotGen2(new YieldWrap(this));
      }
    };
    isEffect = (u) => hasProperty(u, EffectTypeId2);
    withFiberRuntime = (withRuntime) => {
      const effect = new EffectPrimitive(OP_WITH_RUNTIME);
      effect.effect_instruction_i0 = withRuntime;
      return effect;
    };
    acquireUseRelease = /* @__PURE__ */ dual(3, (acquire, use, release) => uninterruptibleMask((restore) => flatMap6(acquire, (a) => flatMap6(exit(suspend(() => restore(use(a)))), (exit3) => {
      return suspend(() => release(a, exit3)).pipe(matchCauseEffect({
        onFailure: (cause2) => {
          switch (exit3._tag) {
            case OP_FAILURE:
              return failCause(sequential(exit3.effect_instruction_i0, cause2));
            case OP_SUCCESS:
              return failCause(cause2);
          }
        },
        onSuccess: () => exit3
      }));
    }))));
    as = /* @__PURE__ */ dual(2, (self, value) => flatMap6(self, () => succeed(value)));
    asVoid = (self) => as(self, void 0);
    custom = function() {
      const wrapper = new EffectPrimitive(OP_COMMIT);
      switch (arguments.length) {
        case 2: {
          wrapper.effect_instruction_i0 = arguments[0];
          wrapper.commit = arguments[1];
          break;
        }
        case 3: {
          wrapper.effect_instruction_i0 = arguments[0];
          wrapper.effect_instruction_i1 = arguments[1];
          wrapper.commit = arguments[2];
          break;
        }
        case 4: {
          wrapper.effect_instruction_i0 = arguments[0];
          wrapper.effect_instruction_i1 = arguments[1];
          wrapper.effect_instruction_i2 = arguments[2];
          wrapper.commit = arguments[3];
          break;
        }
        default: {
          throw new Error(getBugErrorMessage("you're not supposed to end up here"));
        }
      }
      return wrapper;
    };
    unsafeAsync = (register, blockingOn = none4) => {
      const effect = new EffectPrimitive(OP_ASYNC);
      let cancelerRef = void 0;
      effect.effect_instruction_i0 = (resume2) => {
        cancelerRef = register(resume2);
      };
      effect.effect_instruction_i1 = blockingOn;
      return onInterrupt(effect, (_) => isEffect(cancelerRef) ? cancelerRef : void_);
    };
    asyncInterrupt = (register, blockingOn = none4) => suspend(() => unsafeAsync(register, blockingOn));
    async_ = (resume2, blockingOn = none4) => {
      return custom(resume2, function() {
        let backingResume = void 0;
        let pendingEffect = void 0;
        function proxyResume(effect2) {
          if (backingResume) {
            backingResume(effect2);
          } else if (pendingEffect === void 0) {
            pendingEffect = effect2;
          }
        }
        const effect = new EffectPrimitive(OP_ASYNC);
        effect.effect_instruction_i0 = (resume3) => {
          backingResume = resume3;
          if (pendingEffect) {
            resume3(pendingEffect);
          }
        };
        effect.effect_instruction_i1 = blockingOn;
        let cancelerRef = void 0;
        let controllerRef = void 0;
        if (this.effect_instruction_i0.length !== 1) {
          controllerRef = new AbortController();
          cancelerRef = internalCall(() => this.effect_instruction_i0(proxyResume, controllerRef.signal));
        } else {
          cancelerRef = internalCall(() => this.effect_instruction_i0(proxyResume));
        }
        return cancelerRef || controllerRef ? onInterrupt(effect, (_) => {
          if (controllerRef) {
            controllerRef.abort();
          }
          return cancelerRef ?? void_;
        }) : effect;
      });
    };
    catchAll = /* @__PURE__ */ dual(2, (self, f) => matchEffect(self, {
      onFailure: f,
      onSuccess: succeed
    }));
    originalSymbol = /* @__PURE__ */ Symbol.for("effect/OriginalAnnotation");
    capture = (obj, span2) => {
      if (isSome2(span2)) {
        return new Proxy(obj, {
          has(target, p) {
            return p === spanSymbol || p === originalSymbol || p in target;
          },
          get(target, p) {
            if (p === spanSymbol) {
              return span2.value;
            }
            if (p === originalSymbol) {
              return obj;
            }
            return target[p];
          }
        });
      }
      return obj;
    };
    die2 = (defect) => isObject(defect) && !(spanSymbol in defect) ? withFiberRuntime((fiber) => failCause(die(capture(defect, currentSpanFromFiber(fiber))))) : failCause(die(defect));
    dieMessage = (message) => failCauseSync(() => die(new RuntimeException(message)));
    either2 = (self) => matchEffect(self, {
      onFailure: (e) => succeed(left2(e)),
      onSuccess: (a) => succeed(right2(a))
    });
    exit = (self) => matchCause(self, {
      onFailure: exitFailCause,
      onSuccess: exitSucceed
    });
    fail2 = (error) => isObject(error) && !(spanSymbol in error) ? withFiberRuntime((fiber) => failCause(fail(capture(error, currentSpanFromFiber(fiber))))) : failCause(fail(error));
    failSync = (evaluate2) => flatMap6(sync(evaluate2), fail2);
    failCause = (cause2) => {
      const effect = new EffectPrimitiveFailure(OP_FAILURE);
      effect.effect_instruction_i0 = cause2;
      return effect;
    };
    failCauseSync = (evaluate2) => flatMap6(sync(evaluate2), failCause);
    fiberId = /* @__PURE__ */ withFiberRuntime((state) => succeed(state.id()));
    fiberIdWith = (f) => withFiberRuntime((state) => f(state.id()));
    flatMap6 = /* @__PURE__ */ dual(2, (self, f) => {
      const effect = new EffectPrimitive(OP_ON_SUCCESS);
      effect.effect_instruction_i0 = self;
      effect.effect_instruction_i1 = f;
      return effect;
    });
    step2 = (self) => {
      const effect = new EffectPrimitive("OnStep");
      effect.effect_instruction_i0 = self;
      return effect;
    };
    flatten3 = (self) => flatMap6(self, identity);
    matchCause = /* @__PURE__ */ dual(2, (self, options) => matchCauseEffect(self, {
      onFailure: (cause2) => succeed(options.onFailure(cause2)),
      onSuccess: (a) => succeed(options.onSuccess(a))
    }));
    matchCauseEffect = /* @__PURE__ */ dual(2, (self, options) => {
      const effect = new EffectPrimitive(OP_ON_SUCCESS_AND_FAILURE);
      effect.effect_instruction_i0 = self;
      effect.effect_instruction_i1 = options.onFailure;
      effect.effect_instruction_i2 = options.onSuccess;
      return effect;
    });
    matchEffect = /* @__PURE__ */ dual(2, (self, options) => matchCauseEffect(self, {
      onFailure: (cause2) => {
        const defects2 = defects(cause2);
        if (defects2.length > 0) {
          return failCause(electFailures(cause2));
        }
        const failures2 = failures(cause2);
        if (failures2.length > 0) {
          return options.onFailure(unsafeHead(failures2));
        }
        return failCause(cause2);
      },
      onSuccess: options.onSuccess
    }));
    forEachSequential = /* @__PURE__ */ dual(2, (self, f) => suspend(() => {
      const arr = fromIterable(self);
      const ret = allocate(arr.length);
      let i = 0;
      return as(whileLoop({
        while: () => i < arr.length,
        body: () => f(arr[i], i),
        step: (b) => {
          ret[i++] = b;
        }
      }), ret);
    }));
    forEachSequentialDiscard = /* @__PURE__ */ dual(2, (self, f) => suspend(() => {
      const arr = fromIterable(self);
      let i = 0;
      return whileLoop({
        while: () => i < arr.length,
        body: () => f(arr[i], i),
        step: () => {
          i++;
        }
      });
    }));
    interruptible2 = (self) => {
      const effect = new EffectPrimitive(OP_UPDATE_RUNTIME_FLAGS);
      effect.effect_instruction_i0 = enable3(Interruption);
      effect.effect_instruction_i1 = () => self;
      return effect;
    };
    map8 = /* @__PURE__ */ dual(2, (self, f) => flatMap6(self, (a) => sync(() => f(a))));
    mapBoth = /* @__PURE__ */ dual(2, (self, options) => matchEffect(self, {
      onFailure: (e) => failSync(() => options.onFailure(e)),
      onSuccess: (a) => sync(() => options.onSuccess(a))
    }));
    mapError = /* @__PURE__ */ dual(2, (self, f) => matchCauseEffect(self, {
      onFailure: (cause2) => {
        const either4 = failureOrCause(cause2);
        switch (either4._tag) {
          case "Left": {
            return failSync(() => f(either4.left));
          }
          case "Right": {
            return failCause(either4.right);
          }
        }
      },
      onSuccess: succeed
    }));
    onExit = /* @__PURE__ */ dual(2, (self, cleanup) => uninterruptibleMask((restore) => matchCauseEffect(restore(self), {
      onFailure: (cause1) => {
        const result = exitFailCause(cause1);
        return matchCauseEffect(cleanup(result), {
          onFailure: (cause2) => exitFailCause(sequential(cause1, cause2)),
          onSuccess: () => result
        });
      },
      onSuccess: (success) => {
        const result = exitSucceed(success);
        return zipRight(cleanup(result), result);
      }
    })));
    onInterrupt = /* @__PURE__ */ dual(2, (self, cleanup) => onExit(self, exitMatch({
      onFailure: (cause2) => isInterruptedOnly(cause2) ? asVoid(cleanup(interruptors(cause2))) : void_,
      onSuccess: () => void_
    })));
    succeed = (value) => {
      const effect = new EffectPrimitiveSuccess(OP_SUCCESS);
      effect.effect_instruction_i0 = value;
      return effect;
    };
    suspend = (evaluate2) => {
      const effect = new EffectPrimitive(OP_COMMIT);
      effect.commit = evaluate2;
      return effect;
    };
    sync = (thunk) => {
      const effect = new EffectPrimitive(OP_SYNC);
      effect.effect_instruction_i0 = thunk;
      return effect;
    };
    tap = /* @__PURE__ */ dual((args2) => args2.length === 3 || args2.length === 2 && !(isObject(args2[1]) && "onlyEffect" in args2[1]), (self, f) => flatMap6(self, (a) => {
      const b = typeof f === "function" ? f(a) : f;
      if (isEffect(b)) {
        return as(b, a);
      } else if (isPromiseLike(b)) {
        return unsafeAsync((resume2) => {
          b.then((_) => resume2(succeed(a)), (e) => resume2(fail2(new UnknownException(e, "An unknown error occurred in Effect.tap"))));
        });
      }
      return succeed(a);
    }));
    transplant = (f) => withFiberRuntime((state) => {
      const scopeOverride = state.getFiberRef(currentForkScopeOverride);
      const scope = pipe(scopeOverride, getOrElse(() => state.scope()));
      return f(fiberRefLocally(currentForkScopeOverride, some2(scope)));
    });
    uninterruptible = (self) => {
      const effect = new EffectPrimitive(OP_UPDATE_RUNTIME_FLAGS);
      effect.effect_instruction_i0 = disable2(Interruption);
      effect.effect_instruction_i1 = () => self;
      return effect;
    };
    uninterruptibleMask = (f) => custom(f, function() {
      const effect = new EffectPrimitive(OP_UPDATE_RUNTIME_FLAGS);
      effect.effect_instruction_i0 = disable2(Interruption);
      effect.effect_instruction_i1 = (oldFlags) => interruption(oldFlags) ? internalCall(() => this.effect_instruction_i0(interruptible2)) : internalCall(() => this.effect_instruction_i0(uninterruptible));
      return effect;
    });
    void_ = /* @__PURE__ */ succeed(void 0);
    updateRuntimeFlags = (patch9) => {
      const effect = new EffectPrimitive(OP_UPDATE_RUNTIME_FLAGS);
      effect.effect_instruction_i0 = patch9;
      effect.effect_instruction_i1 = void 0;
      return effect;
    };
    whileLoop = (options) => {
      const effect = new EffectPrimitive(OP_WHILE);
      effect.effect_instruction_i0 = options.while;
      effect.effect_instruction_i1 = options.body;
      effect.effect_instruction_i2 = options.step;
      return effect;
    };
    fromIterator = (iterator) => suspend(() => {
      const effect = new EffectPrimitive(OP_ITERATOR);
      effect.effect_instruction_i0 = iterator();
      return effect;
    });
    yieldNow = (options) => {
      const effect = new EffectPrimitive(OP_YIELD);
      return typeof options?.priority !== "undefined" ? withSchedulingPriority(effect, options.priority) : effect;
    };
    zip2 = /* @__PURE__ */ dual(2, (self, that) => flatMap6(self, (a) => map8(that, (b) => [a, b])));
    zipLeft = /* @__PURE__ */ dual(2, (self, that) => flatMap6(self, (a) => as(that, a)));
    zipRight = /* @__PURE__ */ dual(2, (self, that) => flatMap6(self, () => that));
    never = /* @__PURE__ */ asyncInterrupt(() => {
      const interval = setInterval(() => {
      }, 2 ** 31 - 1);
      return sync(() => clearInterval(interval));
    });
    interruptFiber = (self) => flatMap6(fiberId, (fiberId2) => pipe(self, interruptAsFiber(fiberId2)));
    interruptAsFiber = /* @__PURE__ */ dual(2, (self, fiberId2) => flatMap6(self.interruptAsFork(fiberId2), () => self.await));
    logLevelAll = {
      _tag: "All",
      syslog: 0,
      label: "ALL",
      ordinal: Number.MIN_SAFE_INTEGER,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    logLevelFatal = {
      _tag: "Fatal",
      syslog: 2,
      label: "FATAL",
      ordinal: 5e4,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    logLevelError = {
      _tag: "Error",
      syslog: 3,
      label: "ERROR",
      ordinal: 4e4,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    logLevelWarning = {
      _tag: "Warning",
      syslog: 4,
      label: "WARN",
      ordinal: 3e4,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    logLevelInfo = {
      _tag: "Info",
      syslog: 6,
      label: "INFO",
      ordinal: 2e4,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    logLevelDebug = {
      _tag: "Debug",
      syslog: 7,
      label: "DEBUG",
      ordinal: 1e4,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    logLevelTrace = {
      _tag: "Trace",
      syslog: 7,
      label: "TRACE",
      ordinal: 0,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    logLevelNone = {
      _tag: "None",
      syslog: 7,
      label: "OFF",
      ordinal: Number.MAX_SAFE_INTEGER,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    FiberRefSymbolKey = "effect/FiberRef";
    FiberRefTypeId = /* @__PURE__ */ Symbol.for(FiberRefSymbolKey);
    fiberRefVariance = {
      /* c8 ignore next */
      _A: (_) => _
    };
    fiberRefGet = (self) => withFiberRuntime((fiber) => exitSucceed(fiber.getFiberRef(self)));
    fiberRefGetWith = /* @__PURE__ */ dual(2, (self, f) => flatMap6(fiberRefGet(self), f));
    fiberRefSet = /* @__PURE__ */ dual(2, (self, value) => fiberRefModify(self, () => [void 0, value]));
    fiberRefModify = /* @__PURE__ */ dual(2, (self, f) => withFiberRuntime((state) => {
      const [b, a] = f(state.getFiberRef(self));
      state.setFiberRef(self, a);
      return succeed(b);
    }));
    RequestResolverSymbolKey = "effect/RequestResolver";
    RequestResolverTypeId = /* @__PURE__ */ Symbol.for(RequestResolverSymbolKey);
    requestResolverVariance = {
      /* c8 ignore next */
      _A: (_) => _,
      /* c8 ignore next */
      _R: (_) => _
    };
    RequestResolverImpl = class _RequestResolverImpl {
      runAll;
      target;
      [RequestResolverTypeId] = requestResolverVariance;
      constructor(runAll, target) {
        this.runAll = runAll;
        this.target = target;
      }
      [symbol]() {
        return cached(this, this.target ? hash(this.target) : random(this));
      }
      [symbol2](that) {
        return this.target ? isRequestResolver(that) && equals(this.target, that.target) : this === that;
      }
      identified(...ids3) {
        return new _RequestResolverImpl(this.runAll, fromIterable2(ids3));
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    isRequestResolver = (u) => hasProperty(u, RequestResolverTypeId);
    fiberRefLocally = /* @__PURE__ */ dual(3, (use, self, value) => acquireUseRelease(zipLeft(fiberRefGet(self), fiberRefSet(self, value)), () => use, (oldValue) => fiberRefSet(self, oldValue)));
    fiberRefUnsafeMake = (initial, options) => fiberRefUnsafeMakePatch(initial, {
      differ: update(),
      fork: options?.fork ?? identity,
      join: options?.join
    });
    fiberRefUnsafeMakeHashSet = (initial) => {
      const differ3 = hashSet();
      return fiberRefUnsafeMakePatch(initial, {
        differ: differ3,
        fork: differ3.empty
      });
    };
    fiberRefUnsafeMakeReadonlyArray = (initial) => {
      const differ3 = readonlyArray(update());
      return fiberRefUnsafeMakePatch(initial, {
        differ: differ3,
        fork: differ3.empty
      });
    };
    fiberRefUnsafeMakeContext = (initial) => {
      const differ3 = environment();
      return fiberRefUnsafeMakePatch(initial, {
        differ: differ3,
        fork: differ3.empty
      });
    };
    fiberRefUnsafeMakePatch = (initial, options) => {
      const _fiberRef = {
        ...CommitPrototype,
        [FiberRefTypeId]: fiberRefVariance,
        initial,
        commit() {
          return fiberRefGet(this);
        },
        diff: (oldValue, newValue) => options.differ.diff(oldValue, newValue),
        combine: (first2, second) => options.differ.combine(first2, second),
        patch: (patch9) => (oldValue) => options.differ.patch(patch9, oldValue),
        fork: options.fork,
        join: options.join ?? ((_, n) => n)
      };
      return _fiberRef;
    };
    fiberRefUnsafeMakeRuntimeFlags = (initial) => fiberRefUnsafeMakePatch(initial, {
      differ,
      fork: differ.empty
    });
    currentContext = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentContext"), () => fiberRefUnsafeMakeContext(empty8()));
    currentSchedulingPriority = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentSchedulingPriority"), () => fiberRefUnsafeMake(0));
    currentMaxOpsBeforeYield = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentMaxOpsBeforeYield"), () => fiberRefUnsafeMake(2048));
    currentLogAnnotations = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentLogAnnotation"), () => fiberRefUnsafeMake(empty9()));
    currentLogLevel = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentLogLevel"), () => fiberRefUnsafeMake(logLevelInfo));
    currentLogSpan = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentLogSpan"), () => fiberRefUnsafeMake(empty10()));
    withSchedulingPriority = /* @__PURE__ */ dual(2, (self, scheduler) => fiberRefLocally(self, currentSchedulingPriority, scheduler));
    currentUnhandledErrorLogLevel = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentUnhandledErrorLogLevel"), () => fiberRefUnsafeMake(some2(logLevelDebug)));
    currentVersionMismatchErrorLogLevel = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/versionMismatchErrorLogLevel"), () => fiberRefUnsafeMake(some2(logLevelWarning)));
    currentMetricLabels = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentMetricLabels"), () => fiberRefUnsafeMakeReadonlyArray(empty()));
    currentForkScopeOverride = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentForkScopeOverride"), () => fiberRefUnsafeMake(none2(), {
      fork: () => none2(),
      join: (parent, _) => parent
    }));
    currentInterruptedCause = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentInterruptedCause"), () => fiberRefUnsafeMake(empty6, {
      fork: () => empty6,
      join: (parent, _) => parent
    }));
    currentTracerEnabled = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentTracerEnabled"), () => fiberRefUnsafeMake(true));
    currentTracerTimingEnabled = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentTracerTiming"), () => fiberRefUnsafeMake(true));
    currentTracerSpanAnnotations = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentTracerSpanAnnotations"), () => fiberRefUnsafeMake(empty9()));
    currentTracerSpanLinks = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentTracerSpanLinks"), () => fiberRefUnsafeMake(empty2()));
    ScopeTypeId = /* @__PURE__ */ Symbol.for("effect/Scope");
    CloseableScopeTypeId = /* @__PURE__ */ Symbol.for("effect/CloseableScope");
    scopeAddFinalizer = (self, finalizer) => self.addFinalizer(() => asVoid(finalizer));
    scopeClose = (self, exit3) => self.close(exit3);
    scopeFork = (self, strategy) => self.fork(strategy);
    YieldableError = /* @__PURE__ */ (function() {
      class YieldableError2 extends globalThis.Error {
        commit() {
          return fail2(this);
        }
        toJSON() {
          const obj = {
            ...this
          };
          if (this.message) obj.message = this.message;
          if (this.cause) obj.cause = this.cause;
          return obj;
        }
        [NodeInspectSymbol]() {
          if (this.toString !== globalThis.Error.prototype.toString) {
            return this.stack ? `${this.toString()}
${this.stack.split("\n").slice(1).join("\n")}` : this.toString();
          } else if ("Bun" in globalThis) {
            return pretty(fail(this), {
              renderErrorCause: true
            });
          }
          return this;
        }
      }
      Object.assign(YieldableError2.prototype, StructuralCommitPrototype);
      return YieldableError2;
    })();
    makeException = (proto3, tag) => {
      class Base3 extends YieldableError {
        _tag = tag;
      }
      Object.assign(Base3.prototype, proto3);
      Base3.prototype.name = tag;
      return Base3;
    };
    RuntimeExceptionTypeId = /* @__PURE__ */ Symbol.for("effect/Cause/errors/RuntimeException");
    RuntimeException = /* @__PURE__ */ makeException({
      [RuntimeExceptionTypeId]: RuntimeExceptionTypeId
    }, "RuntimeException");
    InterruptedExceptionTypeId = /* @__PURE__ */ Symbol.for("effect/Cause/errors/InterruptedException");
    InterruptedException = /* @__PURE__ */ makeException({
      [InterruptedExceptionTypeId]: InterruptedExceptionTypeId
    }, "InterruptedException");
    isInterruptedException = (u) => hasProperty(u, InterruptedExceptionTypeId);
    IllegalArgumentExceptionTypeId = /* @__PURE__ */ Symbol.for("effect/Cause/errors/IllegalArgument");
    IllegalArgumentException = /* @__PURE__ */ makeException({
      [IllegalArgumentExceptionTypeId]: IllegalArgumentExceptionTypeId
    }, "IllegalArgumentException");
    NoSuchElementExceptionTypeId = /* @__PURE__ */ Symbol.for("effect/Cause/errors/NoSuchElement");
    NoSuchElementException = /* @__PURE__ */ makeException({
      [NoSuchElementExceptionTypeId]: NoSuchElementExceptionTypeId
    }, "NoSuchElementException");
    InvalidPubSubCapacityExceptionTypeId = /* @__PURE__ */ Symbol.for("effect/Cause/errors/InvalidPubSubCapacityException");
    InvalidPubSubCapacityException = /* @__PURE__ */ makeException({
      [InvalidPubSubCapacityExceptionTypeId]: InvalidPubSubCapacityExceptionTypeId
    }, "InvalidPubSubCapacityException");
    ExceededCapacityExceptionTypeId = /* @__PURE__ */ Symbol.for("effect/Cause/errors/ExceededCapacityException");
    ExceededCapacityException = /* @__PURE__ */ makeException({
      [ExceededCapacityExceptionTypeId]: ExceededCapacityExceptionTypeId
    }, "ExceededCapacityException");
    TimeoutExceptionTypeId = /* @__PURE__ */ Symbol.for("effect/Cause/errors/Timeout");
    TimeoutException = /* @__PURE__ */ makeException({
      [TimeoutExceptionTypeId]: TimeoutExceptionTypeId
    }, "TimeoutException");
    UnknownExceptionTypeId = /* @__PURE__ */ Symbol.for("effect/Cause/errors/UnknownException");
    UnknownException = /* @__PURE__ */ (function() {
      class UnknownException2 extends YieldableError {
        _tag = "UnknownException";
        error;
        constructor(cause2, message) {
          super(message ?? "An unknown error occurred", {
            cause: cause2
          });
          this.error = cause2;
        }
      }
      Object.assign(UnknownException2.prototype, {
        [UnknownExceptionTypeId]: UnknownExceptionTypeId,
        name: "UnknownException"
      });
      return UnknownException2;
    })();
    exitIsExit = (u) => isEffect(u) && "_tag" in u && (u._tag === "Success" || u._tag === "Failure");
    exitIsFailure = (self) => self._tag === "Failure";
    exitAs = /* @__PURE__ */ dual(2, (self, value) => {
      switch (self._tag) {
        case OP_FAILURE: {
          return exitFailCause(self.effect_instruction_i0);
        }
        case OP_SUCCESS: {
          return exitSucceed(value);
        }
      }
    });
    exitAsVoid = (self) => exitAs(self, void 0);
    exitCollectAll = (exits, options) => exitCollectAllInternal(exits, options?.parallel ? parallel : sequential);
    exitFail = (error) => exitFailCause(fail(error));
    exitFailCause = (cause2) => {
      const effect = new EffectPrimitiveFailure(OP_FAILURE);
      effect.effect_instruction_i0 = cause2;
      return effect;
    };
    exitInterrupt = (fiberId2) => exitFailCause(interrupt(fiberId2));
    exitMap = /* @__PURE__ */ dual(2, (self, f) => {
      switch (self._tag) {
        case OP_FAILURE:
          return exitFailCause(self.effect_instruction_i0);
        case OP_SUCCESS:
          return exitSucceed(f(self.effect_instruction_i0));
      }
    });
    exitMatch = /* @__PURE__ */ dual(2, (self, {
      onFailure,
      onSuccess
    }) => {
      switch (self._tag) {
        case OP_FAILURE:
          return onFailure(self.effect_instruction_i0);
        case OP_SUCCESS:
          return onSuccess(self.effect_instruction_i0);
      }
    });
    exitSucceed = (value) => {
      const effect = new EffectPrimitiveSuccess(OP_SUCCESS);
      effect.effect_instruction_i0 = value;
      return effect;
    };
    exitVoid = /* @__PURE__ */ exitSucceed(void 0);
    exitZipWith = /* @__PURE__ */ dual(3, (self, that, {
      onFailure,
      onSuccess
    }) => {
      switch (self._tag) {
        case OP_FAILURE: {
          switch (that._tag) {
            case OP_SUCCESS:
              return exitFailCause(self.effect_instruction_i0);
            case OP_FAILURE: {
              return exitFailCause(onFailure(self.effect_instruction_i0, that.effect_instruction_i0));
            }
          }
        }
        case OP_SUCCESS: {
          switch (that._tag) {
            case OP_SUCCESS:
              return exitSucceed(onSuccess(self.effect_instruction_i0, that.effect_instruction_i0));
            case OP_FAILURE:
              return exitFailCause(that.effect_instruction_i0);
          }
        }
      }
    });
    exitCollectAllInternal = (exits, combineCauses) => {
      const list = fromIterable2(exits);
      if (!isNonEmpty(list)) {
        return none2();
      }
      return pipe(tailNonEmpty2(list), reduce(pipe(headNonEmpty2(list), exitMap(of2)), (accumulator, current) => pipe(accumulator, exitZipWith(current, {
        onSuccess: (list2, value) => pipe(list2, prepend2(value)),
        onFailure: combineCauses
      }))), exitMap(reverse2), exitMap((chunk2) => toReadonlyArray(chunk2)), some2);
    };
    deferredUnsafeMake = (fiberId2) => {
      const _deferred = {
        ...CommitPrototype,
        [DeferredTypeId]: deferredVariance,
        state: make10(pending([])),
        commit() {
          return deferredAwait(this);
        },
        blockingOn: fiberId2
      };
      return _deferred;
    };
    deferredAwait = (self) => asyncInterrupt((resume2) => {
      const state = get5(self.state);
      switch (state._tag) {
        case OP_STATE_DONE: {
          return resume2(state.effect);
        }
        case OP_STATE_PENDING: {
          state.joiners.push(resume2);
          return deferredInterruptJoiner(self, resume2);
        }
      }
    }, self.blockingOn);
    deferredUnsafeDone = (self, effect) => {
      const state = get5(self.state);
      if (state._tag === OP_STATE_PENDING) {
        set2(self.state, done(effect));
        for (let i = 0, len = state.joiners.length; i < len; i++) {
          state.joiners[i](effect);
        }
      }
    };
    deferredInterruptJoiner = (self, joiner) => sync(() => {
      const state = get5(self.state);
      if (state._tag === OP_STATE_PENDING) {
        const index = state.joiners.indexOf(joiner);
        if (index >= 0) {
          state.joiners.splice(index, 1);
        }
      }
    });
    constContext = /* @__PURE__ */ withFiberRuntime((fiber) => exitSucceed(fiber.currentContext));
    context = () => constContext;
    contextWithEffect = (f) => flatMap6(context(), f);
    provideContext = /* @__PURE__ */ dual(2, (self, context2) => fiberRefLocally(currentContext, context2)(self));
    currentSpanFromFiber = (fiber) => {
      const span2 = fiber.currentSpan;
      return span2 !== void 0 && span2._tag === "Span" ? some2(span2) : none2();
    };
    NoopSpanProto = {
      _tag: "Span",
      spanId: "noop",
      traceId: "noop",
      sampled: false,
      status: {
        _tag: "Ended",
        startTime: /* @__PURE__ */ BigInt(0),
        endTime: /* @__PURE__ */ BigInt(0),
        exit: exitVoid
      },
      attributes: /* @__PURE__ */ new Map(),
      links: [],
      kind: "internal",
      attribute() {
      },
      event() {
      },
      end() {
      },
      addLinks() {
      }
    };
    noopSpan = (options) => Object.assign(Object.create(NoopSpanProto), options);
  }
});

// node_modules/effect/dist/esm/internal/clock.js
var ClockSymbolKey, ClockTypeId, clockTag, MAX_TIMER_MILLIS, globalClockScheduler, performanceNowNanos, processOrPerformanceNow, ClockImpl, make17;
var init_clock = __esm({
  "node_modules/effect/dist/esm/internal/clock.js"() {
    init_Context();
    init_Duration();
    init_Function();
    init_core();
    ClockSymbolKey = "effect/Clock";
    ClockTypeId = /* @__PURE__ */ Symbol.for(ClockSymbolKey);
    clockTag = /* @__PURE__ */ GenericTag("effect/Clock");
    MAX_TIMER_MILLIS = 2 ** 31 - 1;
    globalClockScheduler = {
      unsafeSchedule(task, duration) {
        const millis2 = toMillis(duration);
        if (millis2 > MAX_TIMER_MILLIS) {
          return constFalse;
        }
        let completed = false;
        const handle = setTimeout(() => {
          completed = true;
          task();
        }, millis2);
        return () => {
          clearTimeout(handle);
          return !completed;
        };
      }
    };
    performanceNowNanos = /* @__PURE__ */ (function() {
      const bigint1e62 = /* @__PURE__ */ BigInt(1e6);
      if (typeof performance === "undefined" || typeof performance.now !== "function") {
        return () => BigInt(Date.now()) * bigint1e62;
      }
      let origin;
      return () => {
        if (origin === void 0) {
          origin = BigInt(Date.now()) * bigint1e62 - BigInt(Math.round(performance.now() * 1e6));
        }
        return origin + BigInt(Math.round(performance.now() * 1e6));
      };
    })();
    processOrPerformanceNow = /* @__PURE__ */ (function() {
      const processHrtime = typeof process === "object" && "hrtime" in process && typeof process.hrtime.bigint === "function" ? process.hrtime : void 0;
      if (!processHrtime) {
        return performanceNowNanos;
      }
      const origin = /* @__PURE__ */ performanceNowNanos() - /* @__PURE__ */ processHrtime.bigint();
      return () => origin + processHrtime.bigint();
    })();
    ClockImpl = class {
      [ClockTypeId] = ClockTypeId;
      unsafeCurrentTimeMillis() {
        return Date.now();
      }
      unsafeCurrentTimeNanos() {
        return processOrPerformanceNow();
      }
      currentTimeMillis = /* @__PURE__ */ sync(() => this.unsafeCurrentTimeMillis());
      currentTimeNanos = /* @__PURE__ */ sync(() => this.unsafeCurrentTimeNanos());
      scheduler() {
        return succeed(globalClockScheduler);
      }
      sleep(duration) {
        return async_((resume2) => {
          const canceler = globalClockScheduler.unsafeSchedule(() => resume2(void_), duration);
          return asVoid(sync(canceler));
        });
      }
    };
    make17 = () => new ClockImpl();
  }
});

// node_modules/effect/dist/esm/Number.js
var Order;
var init_Number = __esm({
  "node_modules/effect/dist/esm/Number.js"() {
    init_Order();
    Order = number2;
  }
});

// node_modules/effect/dist/esm/RegExp.js
var escape;
var init_RegExp = __esm({
  "node_modules/effect/dist/esm/RegExp.js"() {
    escape = (string2) => string2.replace(/[/\\^$*+?.()|[\]{}]/g, "\\$&");
  }
});

// node_modules/effect/dist/esm/internal/opCodes/configError.js
var OP_AND, OP_OR, OP_INVALID_DATA, OP_MISSING_DATA, OP_SOURCE_UNAVAILABLE, OP_UNSUPPORTED;
var init_configError = __esm({
  "node_modules/effect/dist/esm/internal/opCodes/configError.js"() {
    OP_AND = "And";
    OP_OR = "Or";
    OP_INVALID_DATA = "InvalidData";
    OP_MISSING_DATA = "MissingData";
    OP_SOURCE_UNAVAILABLE = "SourceUnavailable";
    OP_UNSUPPORTED = "Unsupported";
  }
});

// node_modules/effect/dist/esm/internal/configError.js
var ConfigErrorSymbolKey, ConfigErrorTypeId, proto2, And, Or, InvalidData, MissingData, SourceUnavailable, Unsupported, prefixed, reduceWithContext2;
var init_configError2 = __esm({
  "node_modules/effect/dist/esm/internal/configError.js"() {
    init_Array();
    init_Either();
    init_Function();
    init_configError();
    ConfigErrorSymbolKey = "effect/ConfigError";
    ConfigErrorTypeId = /* @__PURE__ */ Symbol.for(ConfigErrorSymbolKey);
    proto2 = {
      _tag: "ConfigError",
      [ConfigErrorTypeId]: ConfigErrorTypeId
    };
    And = (self, that) => {
      const error = Object.create(proto2);
      error._op = OP_AND;
      error.left = self;
      error.right = that;
      Object.defineProperty(error, "toString", {
        enumerable: false,
        value() {
          return `${this.left} and ${this.right}`;
        }
      });
      Object.defineProperty(error, "message", {
        enumerable: false,
        get() {
          return this.toString();
        }
      });
      return error;
    };
    Or = (self, that) => {
      const error = Object.create(proto2);
      error._op = OP_OR;
      error.left = self;
      error.right = that;
      Object.defineProperty(error, "toString", {
        enumerable: false,
        value() {
          return `${this.left} or ${this.right}`;
        }
      });
      Object.defineProperty(error, "message", {
        enumerable: false,
        get() {
          return this.toString();
        }
      });
      return error;
    };
    InvalidData = (path, message, options = {
      pathDelim: "."
    }) => {
      const error = Object.create(proto2);
      error._op = OP_INVALID_DATA;
      error.path = path;
      error.message = message;
      Object.defineProperty(error, "toString", {
        enumerable: false,
        value() {
          const path2 = pipe(this.path, join(options.pathDelim));
          return `(Invalid data at ${path2}: "${this.message}")`;
        }
      });
      return error;
    };
    MissingData = (path, message, options = {
      pathDelim: "."
    }) => {
      const error = Object.create(proto2);
      error._op = OP_MISSING_DATA;
      error.path = path;
      error.message = message;
      Object.defineProperty(error, "toString", {
        enumerable: false,
        value() {
          const path2 = pipe(this.path, join(options.pathDelim));
          return `(Missing data at ${path2}: "${this.message}")`;
        }
      });
      return error;
    };
    SourceUnavailable = (path, message, cause2, options = {
      pathDelim: "."
    }) => {
      const error = Object.create(proto2);
      error._op = OP_SOURCE_UNAVAILABLE;
      error.path = path;
      error.message = message;
      error.cause = cause2;
      Object.defineProperty(error, "toString", {
        enumerable: false,
        value() {
          const path2 = pipe(this.path, join(options.pathDelim));
          return `(Source unavailable at ${path2}: "${this.message}")`;
        }
      });
      return error;
    };
    Unsupported = (path, message, options = {
      pathDelim: "."
    }) => {
      const error = Object.create(proto2);
      error._op = OP_UNSUPPORTED;
      error.path = path;
      error.message = message;
      Object.defineProperty(error, "toString", {
        enumerable: false,
        value() {
          const path2 = pipe(this.path, join(options.pathDelim));
          return `(Unsupported operation at ${path2}: "${this.message}")`;
        }
      });
      return error;
    };
    prefixed = /* @__PURE__ */ dual(2, (self, prefix) => {
      switch (self._op) {
        case OP_AND: {
          return And(prefixed(self.left, prefix), prefixed(self.right, prefix));
        }
        case OP_OR: {
          return Or(prefixed(self.left, prefix), prefixed(self.right, prefix));
        }
        case OP_INVALID_DATA: {
          return InvalidData([...prefix, ...self.path], self.message);
        }
        case OP_MISSING_DATA: {
          return MissingData([...prefix, ...self.path], self.message);
        }
        case OP_SOURCE_UNAVAILABLE: {
          return SourceUnavailable([...prefix, ...self.path], self.message, self.cause);
        }
        case OP_UNSUPPORTED: {
          return Unsupported([...prefix, ...self.path], self.message);
        }
      }
    });
    reduceWithContext2 = /* @__PURE__ */ dual(3, (self, context2, reducer) => {
      const input = [self];
      const output = [];
      while (input.length > 0) {
        const error = input.pop();
        switch (error._op) {
          case OP_AND: {
            input.push(error.right);
            input.push(error.left);
            output.push(left2({
              _op: "AndCase"
            }));
            break;
          }
          case OP_OR: {
            input.push(error.right);
            input.push(error.left);
            output.push(left2({
              _op: "OrCase"
            }));
            break;
          }
          case OP_INVALID_DATA: {
            output.push(right2(reducer.invalidDataCase(context2, error.path, error.message)));
            break;
          }
          case OP_MISSING_DATA: {
            output.push(right2(reducer.missingDataCase(context2, error.path, error.message)));
            break;
          }
          case OP_SOURCE_UNAVAILABLE: {
            output.push(right2(reducer.sourceUnavailableCase(context2, error.path, error.message, error.cause)));
            break;
          }
          case OP_UNSUPPORTED: {
            output.push(right2(reducer.unsupportedCase(context2, error.path, error.message)));
            break;
          }
        }
      }
      const accumulator = [];
      while (output.length > 0) {
        const either4 = output.pop();
        switch (either4._op) {
          case "Left": {
            switch (either4.left._op) {
              case "AndCase": {
                const left3 = accumulator.pop();
                const right3 = accumulator.pop();
                const value = reducer.andCase(context2, left3, right3);
                accumulator.push(value);
                break;
              }
              case "OrCase": {
                const left3 = accumulator.pop();
                const right3 = accumulator.pop();
                const value = reducer.orCase(context2, left3, right3);
                accumulator.push(value);
                break;
              }
            }
            break;
          }
          case "Right": {
            accumulator.push(either4.right);
            break;
          }
        }
      }
      if (accumulator.length === 0) {
        throw new Error("BUG: ConfigError.reduceWithContext - please report an issue at https://github.com/Effect-TS/effect/issues");
      }
      return accumulator.pop();
    });
  }
});

// node_modules/effect/dist/esm/internal/configProvider/pathPatch.js
var empty15, patch5;
var init_pathPatch = __esm({
  "node_modules/effect/dist/esm/internal/configProvider/pathPatch.js"() {
    init_Array();
    init_Either();
    init_Function();
    init_List();
    init_Option();
    init_configError2();
    empty15 = {
      _tag: "Empty"
    };
    patch5 = /* @__PURE__ */ dual(2, (path, patch9) => {
      let input = of3(patch9);
      let output = path;
      while (isCons(input)) {
        const patch10 = input.head;
        switch (patch10._tag) {
          case "Empty": {
            input = input.tail;
            break;
          }
          case "AndThen": {
            input = cons(patch10.first, cons(patch10.second, input.tail));
            break;
          }
          case "MapName": {
            output = map2(output, patch10.f);
            input = input.tail;
            break;
          }
          case "Nested": {
            output = prepend(output, patch10.name);
            input = input.tail;
            break;
          }
          case "Unnested": {
            const containsName = pipe(head(output), contains(patch10.name));
            if (containsName) {
              output = tailNonEmpty(output);
              input = input.tail;
            } else {
              return left2(MissingData(output, `Expected ${patch10.name} to be in path in ConfigProvider#unnested`));
            }
            break;
          }
        }
      }
      return right2(output);
    });
  }
});

// node_modules/effect/dist/esm/internal/opCodes/config.js
var OP_CONSTANT, OP_FAIL2, OP_FALLBACK, OP_DESCRIBED, OP_LAZY, OP_MAP_OR_FAIL, OP_NESTED, OP_PRIMITIVE, OP_REDACTED, OP_SEQUENCE, OP_HASHMAP, OP_ZIP_WITH;
var init_config2 = __esm({
  "node_modules/effect/dist/esm/internal/opCodes/config.js"() {
    OP_CONSTANT = "Constant";
    OP_FAIL2 = "Fail";
    OP_FALLBACK = "Fallback";
    OP_DESCRIBED = "Described";
    OP_LAZY = "Lazy";
    OP_MAP_OR_FAIL = "MapOrFail";
    OP_NESTED = "Nested";
    OP_PRIMITIVE = "Primitive";
    OP_REDACTED = "Redacted";
    OP_SEQUENCE = "Sequence";
    OP_HASHMAP = "HashMap";
    OP_ZIP_WITH = "ZipWith";
  }
});

// node_modules/effect/dist/esm/internal/configProvider.js
var concat, ConfigProviderSymbolKey, ConfigProviderTypeId, configProviderTag, FlatConfigProviderSymbolKey, FlatConfigProviderTypeId, make19, makeFlat, fromFlat, fromEnv, extend, appendConfigPath, RedactedConfigErrorReducer, redactConfigError, fromFlatLoop, fromFlatLoopFail, splitPathString, parsePrimitive, transpose, indicesFrom, QUOTED_INDEX_REGEX, parseQuotedIndex, parseInteger;
var init_configProvider = __esm({
  "node_modules/effect/dist/esm/internal/configProvider.js"() {
    init_Array();
    init_Context();
    init_Either();
    init_Function();
    init_HashMap();
    init_HashSet();
    init_Number();
    init_Option();
    init_Pipeable();
    init_RegExp();
    init_configError2();
    init_pathPatch();
    init_core();
    init_config2();
    concat = (l, r) => [...l, ...r];
    ConfigProviderSymbolKey = "effect/ConfigProvider";
    ConfigProviderTypeId = /* @__PURE__ */ Symbol.for(ConfigProviderSymbolKey);
    configProviderTag = /* @__PURE__ */ GenericTag("effect/ConfigProvider");
    FlatConfigProviderSymbolKey = "effect/ConfigProviderFlat";
    FlatConfigProviderTypeId = /* @__PURE__ */ Symbol.for(FlatConfigProviderSymbolKey);
    make19 = (options) => ({
      [ConfigProviderTypeId]: ConfigProviderTypeId,
      pipe() {
        return pipeArguments(this, arguments);
      },
      ...options
    });
    makeFlat = (options) => ({
      [FlatConfigProviderTypeId]: FlatConfigProviderTypeId,
      patch: options.patch,
      load: (path, config, split = true) => options.load(path, config, split),
      enumerateChildren: options.enumerateChildren
    });
    fromFlat = (flat) => make19({
      load: (config) => flatMap6(fromFlatLoop(flat, empty(), config, false), (chunk2) => match2(head(chunk2), {
        onNone: () => fail2(MissingData(empty(), `Expected a single value having structure: ${config}`)),
        onSome: succeed
      })),
      flattened: flat
    });
    fromEnv = (options) => {
      const {
        pathDelim,
        seqDelim
      } = Object.assign({}, {
        pathDelim: "_",
        seqDelim: ","
      }, options);
      const makePathString = (path) => pipe(path, join(pathDelim));
      const unmakePathString = (pathString) => pathString.split(pathDelim);
      const getEnv = () => typeof process !== "undefined" && "env" in process && typeof process.env === "object" ? process.env : {};
      const load = (path, primitive, split = true) => {
        const pathString = makePathString(path);
        const current = getEnv();
        const valueOpt = pathString in current ? some2(current[pathString]) : none2();
        return pipe(valueOpt, mapError(() => MissingData(path, `Expected ${pathString} to exist in the process context`)), flatMap6((value) => parsePrimitive(value, path, primitive, seqDelim, split)));
      };
      const enumerateChildren = (path) => sync(() => {
        const current = getEnv();
        const keys5 = Object.keys(current);
        const keyPaths = keys5.map((value) => unmakePathString(value.toUpperCase()));
        const filteredKeyPaths = keyPaths.filter((keyPath) => {
          for (let i = 0; i < path.length; i++) {
            const pathComponent = pipe(path, unsafeGet(i));
            const currentElement = keyPath[i];
            if (currentElement === void 0 || pathComponent !== currentElement) {
              return false;
            }
          }
          return true;
        }).flatMap((keyPath) => keyPath.slice(path.length, path.length + 1));
        return fromIterable5(filteredKeyPaths);
      });
      return fromFlat(makeFlat({
        load,
        enumerateChildren,
        patch: empty15
      }));
    };
    extend = (leftDef, rightDef, left3, right3) => {
      const leftPad = unfold(left3.length, (index) => index >= right3.length ? none2() : some2([leftDef(index), index + 1]));
      const rightPad = unfold(right3.length, (index) => index >= left3.length ? none2() : some2([rightDef(index), index + 1]));
      const leftExtension = concat(left3, leftPad);
      const rightExtension = concat(right3, rightPad);
      return [leftExtension, rightExtension];
    };
    appendConfigPath = (path, config) => {
      let op = config;
      if (op._tag === "Nested") {
        const out = path.slice();
        while (op._tag === "Nested") {
          out.push(op.name);
          op = op.config;
        }
        return out;
      }
      return path;
    };
    RedactedConfigErrorReducer = {
      andCase: (_, left3, right3) => And(left3, right3),
      orCase: (_, left3, right3) => Or(left3, right3),
      invalidDataCase: (_, path) => InvalidData(path, "<redacted>"),
      missingDataCase: (_, path) => MissingData(path, "<redacted>"),
      sourceUnavailableCase: (_, path, _message, cause2) => SourceUnavailable(path, "<redacted>", cause2),
      unsupportedCase: (_, path) => Unsupported(path, "<redacted>")
    };
    redactConfigError = (error) => reduceWithContext2(error, void 0, RedactedConfigErrorReducer);
    fromFlatLoop = (flat, prefix, config, split) => {
      const op = config;
      switch (op._tag) {
        case OP_CONSTANT: {
          return succeed(of(op.value));
        }
        case OP_DESCRIBED: {
          return suspend(() => fromFlatLoop(flat, prefix, op.config, split));
        }
        case OP_FAIL2: {
          return fail2(MissingData(prefix, op.message));
        }
        case OP_FALLBACK: {
          return pipe(suspend(() => fromFlatLoop(flat, prefix, op.first, split)), catchAll((error1) => {
            if (op.condition(error1)) {
              return pipe(fromFlatLoop(flat, prefix, op.second, split), catchAll((error2) => fail2(Or(error1, error2))));
            }
            return fail2(error1);
          }));
        }
        case OP_LAZY: {
          return suspend(() => fromFlatLoop(flat, prefix, op.config(), split));
        }
        case OP_MAP_OR_FAIL: {
          return suspend(() => pipe(fromFlatLoop(flat, prefix, op.original, split), flatMap6(forEachSequential((a) => pipe(op.mapOrFail(a), mapError(prefixed(appendConfigPath(prefix, op.original))))))));
        }
        case OP_NESTED: {
          return suspend(() => fromFlatLoop(flat, concat(prefix, of(op.name)), op.config, split));
        }
        case OP_PRIMITIVE: {
          return pipe(patch5(prefix, flat.patch), flatMap6((prefix2) => pipe(flat.load(prefix2, op, split), flatMap6((values3) => {
            if (values3.length === 0) {
              const name = pipe(last(prefix2), getOrElse(() => "<n/a>"));
              return fail2(MissingData([], `Expected ${op.description} with name ${name}`));
            }
            return succeed(values3);
          }))));
        }
        case OP_REDACTED: {
          return suspend(() => pipe(fromFlatLoop(flat, prefix, op.original, split), mapError(redactConfigError), map8(map2(op.redact))));
        }
        case OP_SEQUENCE: {
          return pipe(patch5(prefix, flat.patch), flatMap6((patchedPrefix) => pipe(flat.enumerateChildren(patchedPrefix), flatMap6(indicesFrom), flatMap6((indices) => {
            if (indices.length === 0) {
              return suspend(() => map8(fromFlatLoop(flat, prefix, op.config, true), of));
            }
            return pipe(forEachSequential(indices, (index) => fromFlatLoop(flat, append(prefix, `[${index}]`), op.config, true)), map8((chunkChunk) => {
              const flattened = flatten(chunkChunk);
              if (flattened.length === 0) {
                return of(empty());
              }
              return of(flattened);
            }));
          }))));
        }
        case OP_HASHMAP: {
          return suspend(() => pipe(patch5(prefix, flat.patch), flatMap6((prefix2) => pipe(flat.enumerateChildren(prefix2), flatMap6((keys5) => {
            return pipe(keys5, forEachSequential((key) => fromFlatLoop(flat, concat(prefix2, of(key)), op.valueConfig, split)), map8((matrix) => {
              if (matrix.length === 0) {
                return of(empty9());
              }
              return pipe(transpose(matrix), map2((values3) => fromIterable6(zip(fromIterable(keys5), values3))));
            }));
          })))));
        }
        case OP_ZIP_WITH: {
          return suspend(() => pipe(fromFlatLoop(flat, prefix, op.left, split), either2, flatMap6((left3) => pipe(fromFlatLoop(flat, prefix, op.right, split), either2, flatMap6((right3) => {
            if (isLeft2(left3) && isLeft2(right3)) {
              return fail2(And(left3.left, right3.left));
            }
            if (isLeft2(left3) && isRight2(right3)) {
              return fail2(left3.left);
            }
            if (isRight2(left3) && isLeft2(right3)) {
              return fail2(right3.left);
            }
            if (isRight2(left3) && isRight2(right3)) {
              const path = pipe(prefix, join("."));
              const fail3 = fromFlatLoopFail(prefix, path);
              const [lefts, rights] = extend(fail3, fail3, pipe(left3.right, map2(right2)), pipe(right3.right, map2(right2)));
              return pipe(lefts, zip(rights), forEachSequential(([left4, right4]) => pipe(zip2(left4, right4), map8(([left5, right5]) => op.zip(left5, right5)))));
            }
            throw new Error("BUG: ConfigProvider.fromFlatLoop - please report an issue at https://github.com/Effect-TS/effect/issues");
          })))));
        }
      }
    };
    fromFlatLoopFail = (prefix, path) => (index) => left2(MissingData(prefix, `The element at index ${index} in a sequence at path "${path}" was missing`));
    splitPathString = (text, delim) => {
      const split = text.split(new RegExp(`\\s*${escape(delim)}\\s*`));
      return split;
    };
    parsePrimitive = (text, path, primitive, delimiter, split) => {
      if (!split) {
        return pipe(primitive.parse(text), mapBoth({
          onFailure: prefixed(path),
          onSuccess: of
        }));
      }
      return pipe(splitPathString(text, delimiter), forEachSequential((char) => primitive.parse(char.trim())), mapError(prefixed(path)));
    };
    transpose = (array3) => {
      return Object.keys(array3[0]).map((column) => array3.map((row) => row[column]));
    };
    indicesFrom = (quotedIndices) => pipe(forEachSequential(quotedIndices, parseQuotedIndex), mapBoth({
      onFailure: () => empty(),
      onSuccess: sort(Order)
    }), either2, map8(merge));
    QUOTED_INDEX_REGEX = /^(\[(\d+)\])$/;
    parseQuotedIndex = (str) => {
      const match7 = str.match(QUOTED_INDEX_REGEX);
      if (match7 !== null) {
        const matchedIndex = match7[2];
        return pipe(matchedIndex !== void 0 && matchedIndex.length > 0 ? some2(matchedIndex) : none2(), flatMap(parseInteger));
      }
      return none2();
    };
    parseInteger = (str) => {
      const parsedIndex = Number.parseInt(str);
      return Number.isNaN(parsedIndex) ? none2() : some2(parsedIndex);
    };
  }
});

// node_modules/effect/dist/esm/internal/defaultServices/console.js
var TypeId8, consoleTag, defaultConsole;
var init_console = __esm({
  "node_modules/effect/dist/esm/internal/defaultServices/console.js"() {
    init_Context();
    init_core();
    TypeId8 = /* @__PURE__ */ Symbol.for("effect/Console");
    consoleTag = /* @__PURE__ */ GenericTag("effect/Console");
    defaultConsole = {
      [TypeId8]: TypeId8,
      assert(condition, ...args2) {
        return sync(() => {
          console.assert(condition, ...args2);
        });
      },
      clear: /* @__PURE__ */ sync(() => {
        console.clear();
      }),
      count(label) {
        return sync(() => {
          console.count(label);
        });
      },
      countReset(label) {
        return sync(() => {
          console.countReset(label);
        });
      },
      debug(...args2) {
        return sync(() => {
          console.debug(...args2);
        });
      },
      dir(item, options) {
        return sync(() => {
          console.dir(item, options);
        });
      },
      dirxml(...args2) {
        return sync(() => {
          console.dirxml(...args2);
        });
      },
      error(...args2) {
        return sync(() => {
          console.error(...args2);
        });
      },
      group(options) {
        return options?.collapsed ? sync(() => console.groupCollapsed(options?.label)) : sync(() => console.group(options?.label));
      },
      groupEnd: /* @__PURE__ */ sync(() => {
        console.groupEnd();
      }),
      info(...args2) {
        return sync(() => {
          console.info(...args2);
        });
      },
      log(...args2) {
        return sync(() => {
          console.log(...args2);
        });
      },
      table(tabularData, properties) {
        return sync(() => {
          console.table(tabularData, properties);
        });
      },
      time(label) {
        return sync(() => console.time(label));
      },
      timeEnd(label) {
        return sync(() => console.timeEnd(label));
      },
      timeLog(label, ...args2) {
        return sync(() => {
          console.timeLog(label, ...args2);
        });
      },
      trace(...args2) {
        return sync(() => {
          console.trace(...args2);
        });
      },
      warn(...args2) {
        return sync(() => {
          console.warn(...args2);
        });
      },
      unsafe: console
    };
  }
});

// node_modules/effect/dist/esm/internal/random.js
var RandomSymbolKey, RandomTypeId, randomTag, RandomImpl, shuffleWith, swap, make20, FixedRandomImpl;
var init_random = __esm({
  "node_modules/effect/dist/esm/internal/random.js"() {
    init_Chunk();
    init_Context();
    init_Function();
    init_Hash();
    init_Utils();
    init_core();
    RandomSymbolKey = "effect/Random";
    RandomTypeId = /* @__PURE__ */ Symbol.for(RandomSymbolKey);
    randomTag = /* @__PURE__ */ GenericTag("effect/Random");
    RandomImpl = class {
      seed;
      [RandomTypeId] = RandomTypeId;
      PRNG;
      constructor(seed) {
        this.seed = seed;
        this.PRNG = new PCGRandom(seed);
      }
      get next() {
        return sync(() => this.PRNG.number());
      }
      get nextBoolean() {
        return map8(this.next, (n) => n > 0.5);
      }
      get nextInt() {
        return sync(() => this.PRNG.integer(Number.MAX_SAFE_INTEGER));
      }
      nextRange(min2, max2) {
        return map8(this.next, (n) => (max2 - min2) * n + min2);
      }
      nextIntBetween(min2, max2) {
        return sync(() => this.PRNG.integer(max2 - min2) + min2);
      }
      shuffle(elements) {
        return shuffleWith(elements, (n) => this.nextIntBetween(0, n));
      }
    };
    shuffleWith = (elements, nextIntBounded) => {
      return suspend(() => pipe(sync(() => Array.from(elements)), flatMap6((buffer) => {
        const numbers = [];
        for (let i = buffer.length; i >= 2; i = i - 1) {
          numbers.push(i);
        }
        return pipe(numbers, forEachSequentialDiscard((n) => pipe(nextIntBounded(n), map8((k) => swap(buffer, n - 1, k)))), as(fromIterable2(buffer)));
      })));
    };
    swap = (buffer, index1, index2) => {
      const tmp = buffer[index1];
      buffer[index1] = buffer[index2];
      buffer[index2] = tmp;
      return buffer;
    };
    make20 = (seed) => new RandomImpl(hash(seed));
    FixedRandomImpl = class {
      values;
      [RandomTypeId] = RandomTypeId;
      index = 0;
      constructor(values3) {
        this.values = values3;
        if (values3.length === 0) {
          throw new Error("Requires at least one value");
        }
      }
      getNextValue() {
        const value = this.values[this.index];
        this.index = (this.index + 1) % this.values.length;
        return value;
      }
      get next() {
        return sync(() => {
          const value = this.getNextValue();
          if (typeof value === "number") {
            return Math.max(0, Math.min(1, value));
          }
          return hash(value) / 2147483647;
        });
      }
      get nextBoolean() {
        return sync(() => {
          const value = this.getNextValue();
          if (typeof value === "boolean") {
            return value;
          }
          return hash(value) % 2 === 0;
        });
      }
      get nextInt() {
        return sync(() => {
          const value = this.getNextValue();
          if (typeof value === "number" && Number.isFinite(value)) {
            return Math.round(value);
          }
          return Math.abs(hash(value));
        });
      }
      nextRange(min2, max2) {
        return map8(this.next, (n) => (max2 - min2) * n + min2);
      }
      nextIntBetween(min2, max2) {
        return sync(() => {
          const value = this.getNextValue();
          if (typeof value === "number" && Number.isFinite(value)) {
            return Math.max(min2, Math.min(max2 - 1, Math.round(value)));
          }
          const hash2 = Math.abs(hash(value));
          return min2 + hash2 % (max2 - min2);
        });
      }
      shuffle(elements) {
        return shuffleWith(elements, (n) => this.nextIntBetween(0, n));
      }
    };
  }
});

// node_modules/effect/dist/esm/internal/tracer.js
var TracerTypeId, make21, tracerTag, spanTag, randomHexString, NativeSpan, nativeTracer, addSpanStackTrace, DisablePropagation;
var init_tracer = __esm({
  "node_modules/effect/dist/esm/internal/tracer.js"() {
    init_Context();
    init_Function();
    init_stackTraceLimit();
    TracerTypeId = /* @__PURE__ */ Symbol.for("effect/Tracer");
    make21 = (options) => ({
      [TracerTypeId]: TracerTypeId,
      ...options
    });
    tracerTag = /* @__PURE__ */ GenericTag("effect/Tracer");
    spanTag = /* @__PURE__ */ GenericTag("effect/ParentSpan");
    randomHexString = /* @__PURE__ */ (function() {
      const characters = "abcdef0123456789";
      const charactersLength = characters.length;
      return function(length) {
        let result = "";
        for (let i = 0; i < length; i++) {
          result += characters.charAt(Math.floor(Math.random() * charactersLength));
        }
        return result;
      };
    })();
    NativeSpan = class {
      name;
      parent;
      context;
      startTime;
      kind;
      _tag = "Span";
      spanId;
      traceId = "native";
      sampled = true;
      status;
      attributes;
      events = [];
      links;
      constructor(name, parent, context2, links, startTime, kind) {
        this.name = name;
        this.parent = parent;
        this.context = context2;
        this.startTime = startTime;
        this.kind = kind;
        this.status = {
          _tag: "Started",
          startTime
        };
        this.attributes = /* @__PURE__ */ new Map();
        this.traceId = parent._tag === "Some" ? parent.value.traceId : randomHexString(32);
        this.spanId = randomHexString(16);
        this.links = Array.from(links);
      }
      end(endTime, exit3) {
        this.status = {
          _tag: "Ended",
          endTime,
          exit: exit3,
          startTime: this.status.startTime
        };
      }
      attribute(key, value) {
        this.attributes.set(key, value);
      }
      event(name, startTime, attributes) {
        this.events.push([name, startTime, attributes ?? {}]);
      }
      addLinks(links) {
        this.links.push(...links);
      }
    };
    nativeTracer = /* @__PURE__ */ make21({
      span: (name, parent, context2, links, startTime, kind) => new NativeSpan(name, parent, context2, links, startTime, kind),
      context: (f) => f()
    });
    addSpanStackTrace = (options) => {
      if (options?.captureStackTrace === false) {
        return options;
      } else if (options?.captureStackTrace !== void 0 && typeof options.captureStackTrace !== "boolean") {
        return options;
      }
      const limit = getStackTraceLimit();
      setStackTraceLimit(3);
      const traceError = new Error();
      setStackTraceLimit(limit);
      let cache = false;
      return {
        ...options,
        captureStackTrace: () => {
          if (cache !== false) {
            return cache;
          }
          if (traceError.stack !== void 0) {
            const stack = traceError.stack.split("\n");
            if (stack[3] !== void 0) {
              cache = stack[3].trim();
              return cache;
            }
          }
        }
      };
    };
    DisablePropagation = /* @__PURE__ */ Reference2()("effect/Tracer/DisablePropagation", {
      defaultValue: constFalse
    });
  }
});

// node_modules/effect/dist/esm/internal/defaultServices.js
var liveServices, currentServices;
var init_defaultServices = __esm({
  "node_modules/effect/dist/esm/internal/defaultServices.js"() {
    init_Context();
    init_Function();
    init_GlobalValue();
    init_clock();
    init_configProvider();
    init_core();
    init_console();
    init_random();
    init_tracer();
    liveServices = /* @__PURE__ */ pipe(/* @__PURE__ */ empty8(), /* @__PURE__ */ add4(clockTag, /* @__PURE__ */ make17()), /* @__PURE__ */ add4(consoleTag, defaultConsole), /* @__PURE__ */ add4(randomTag, /* @__PURE__ */ make20(/* @__PURE__ */ Math.random())), /* @__PURE__ */ add4(configProviderTag, /* @__PURE__ */ fromEnv()), /* @__PURE__ */ add4(tracerTag, nativeTracer));
    currentServices = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/DefaultServices/currentServices"), () => fiberRefUnsafeMakeContext(liveServices));
  }
});

// node_modules/effect/dist/esm/Effectable.js
var EffectPrototype2, Base2, Class2;
var init_Effectable = __esm({
  "node_modules/effect/dist/esm/Effectable.js"() {
    init_effectable();
    EffectPrototype2 = EffectPrototype;
    Base2 = Base;
    Class2 = class extends Base2 {
    };
  }
});

// node_modules/effect/dist/esm/internal/executionStrategy.js
var OP_SEQUENTIAL2, OP_PARALLEL2, sequential2, isSequential, isParallel;
var init_executionStrategy = __esm({
  "node_modules/effect/dist/esm/internal/executionStrategy.js"() {
    OP_SEQUENTIAL2 = "Sequential";
    OP_PARALLEL2 = "Parallel";
    sequential2 = {
      _tag: OP_SEQUENTIAL2
    };
    isSequential = (self) => self._tag === OP_SEQUENTIAL2;
    isParallel = (self) => self._tag === OP_PARALLEL2;
  }
});

// node_modules/effect/dist/esm/internal/fiberRefs.js
function unsafeMake3(fiberRefLocals) {
  return new FiberRefsImpl(fiberRefLocals);
}
function empty16() {
  return unsafeMake3(/* @__PURE__ */ new Map());
}
var FiberRefsSym, FiberRefsImpl, findAncestor, joinAs, forkAs, unsafeForkAs, delete_, get7, getOrDefault, updateAs, unsafeUpdateAs, updateManyAs;
var init_fiberRefs = __esm({
  "node_modules/effect/dist/esm/internal/fiberRefs.js"() {
    init_Array();
    init_Equal();
    init_Function();
    init_Option();
    init_Pipeable();
    FiberRefsSym = /* @__PURE__ */ Symbol.for("effect/FiberRefs");
    FiberRefsImpl = class {
      locals;
      [FiberRefsSym] = FiberRefsSym;
      constructor(locals) {
        this.locals = locals;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    findAncestor = (_ref, _parentStack, _childStack, _childModified = false) => {
      const ref = _ref;
      let parentStack = _parentStack;
      let childStack = _childStack;
      let childModified = _childModified;
      let ret = void 0;
      while (ret === void 0) {
        if (isNonEmptyReadonlyArray(parentStack) && isNonEmptyReadonlyArray(childStack)) {
          const parentFiberId = headNonEmpty(parentStack)[0];
          const parentAncestors = tailNonEmpty(parentStack);
          const childFiberId = headNonEmpty(childStack)[0];
          const childRefValue = headNonEmpty(childStack)[1];
          const childAncestors = tailNonEmpty(childStack);
          if (parentFiberId.startTimeMillis < childFiberId.startTimeMillis) {
            childStack = childAncestors;
            childModified = true;
          } else if (parentFiberId.startTimeMillis > childFiberId.startTimeMillis) {
            parentStack = parentAncestors;
          } else {
            if (parentFiberId.id < childFiberId.id) {
              childStack = childAncestors;
              childModified = true;
            } else if (parentFiberId.id > childFiberId.id) {
              parentStack = parentAncestors;
            } else {
              ret = [childRefValue, childModified];
            }
          }
        } else {
          ret = [ref.initial, true];
        }
      }
      return ret;
    };
    joinAs = /* @__PURE__ */ dual(3, (self, fiberId2, that) => {
      const parentFiberRefs = new Map(self.locals);
      that.locals.forEach((childStack, fiberRef) => {
        const childValue = childStack[0][1];
        if (!childStack[0][0][symbol2](fiberId2)) {
          if (!parentFiberRefs.has(fiberRef)) {
            if (equals(childValue, fiberRef.initial)) {
              return;
            }
            parentFiberRefs.set(fiberRef, [[fiberId2, fiberRef.join(fiberRef.initial, childValue)]]);
            return;
          }
          const parentStack = parentFiberRefs.get(fiberRef);
          const [ancestor, wasModified] = findAncestor(fiberRef, parentStack, childStack);
          if (wasModified) {
            const patch9 = fiberRef.diff(ancestor, childValue);
            const oldValue = parentStack[0][1];
            const newValue = fiberRef.join(oldValue, fiberRef.patch(patch9)(oldValue));
            if (!equals(oldValue, newValue)) {
              let newStack;
              const parentFiberId = parentStack[0][0];
              if (parentFiberId[symbol2](fiberId2)) {
                newStack = [[parentFiberId, newValue], ...parentStack.slice(1)];
              } else {
                newStack = [[fiberId2, newValue], ...parentStack];
              }
              parentFiberRefs.set(fiberRef, newStack);
            }
          }
        }
      });
      return new FiberRefsImpl(parentFiberRefs);
    });
    forkAs = /* @__PURE__ */ dual(2, (self, childId) => {
      const map10 = /* @__PURE__ */ new Map();
      unsafeForkAs(self, map10, childId);
      return new FiberRefsImpl(map10);
    });
    unsafeForkAs = (self, map10, fiberId2) => {
      self.locals.forEach((stack, fiberRef) => {
        const oldValue = stack[0][1];
        const newValue = fiberRef.patch(fiberRef.fork)(oldValue);
        if (equals(oldValue, newValue)) {
          map10.set(fiberRef, stack);
        } else {
          map10.set(fiberRef, [[fiberId2, newValue], ...stack]);
        }
      });
    };
    delete_ = /* @__PURE__ */ dual(2, (self, fiberRef) => {
      const locals = new Map(self.locals);
      locals.delete(fiberRef);
      return new FiberRefsImpl(locals);
    });
    get7 = /* @__PURE__ */ dual(2, (self, fiberRef) => {
      if (!self.locals.has(fiberRef)) {
        return none2();
      }
      return some2(headNonEmpty(self.locals.get(fiberRef))[1]);
    });
    getOrDefault = /* @__PURE__ */ dual(2, (self, fiberRef) => pipe(get7(self, fiberRef), getOrElse(() => fiberRef.initial)));
    updateAs = /* @__PURE__ */ dual(2, (self, {
      fiberId: fiberId2,
      fiberRef,
      value
    }) => {
      if (self.locals.size === 0) {
        return new FiberRefsImpl(/* @__PURE__ */ new Map([[fiberRef, [[fiberId2, value]]]]));
      }
      const locals = new Map(self.locals);
      unsafeUpdateAs(locals, fiberId2, fiberRef, value);
      return new FiberRefsImpl(locals);
    });
    unsafeUpdateAs = (locals, fiberId2, fiberRef, value) => {
      const oldStack = locals.get(fiberRef) ?? [];
      let newStack;
      if (isNonEmptyReadonlyArray(oldStack)) {
        const [currentId, currentValue] = headNonEmpty(oldStack);
        if (currentId[symbol2](fiberId2)) {
          if (equals(currentValue, value)) {
            return;
          } else {
            newStack = [[fiberId2, value], ...oldStack.slice(1)];
          }
        } else {
          newStack = [[fiberId2, value], ...oldStack];
        }
      } else {
        newStack = [[fiberId2, value]];
      }
      locals.set(fiberRef, newStack);
    };
    updateManyAs = /* @__PURE__ */ dual(2, (self, {
      entries: entries2,
      forkAs: forkAs2
    }) => {
      if (self.locals.size === 0) {
        return new FiberRefsImpl(new Map(entries2));
      }
      const locals = new Map(self.locals);
      if (forkAs2 !== void 0) {
        unsafeForkAs(self, locals, forkAs2);
      }
      entries2.forEach(([fiberRef, values3]) => {
        if (values3.length === 1) {
          unsafeUpdateAs(locals, values3[0][0], fiberRef, values3[0][1]);
        } else {
          values3.forEach(([fiberId2, value]) => {
            unsafeUpdateAs(locals, fiberId2, fiberRef, value);
          });
        }
      });
      return new FiberRefsImpl(locals);
    });
  }
});

// node_modules/effect/dist/esm/FiberRefs.js
var get8, getOrDefault2, updateManyAs2, empty17;
var init_FiberRefs = __esm({
  "node_modules/effect/dist/esm/FiberRefs.js"() {
    init_fiberRefs();
    get8 = get7;
    getOrDefault2 = getOrDefault;
    updateManyAs2 = updateManyAs;
    empty17 = empty16;
  }
});

// node_modules/effect/dist/esm/internal/fiberRefs/patch.js
var OP_EMPTY2, OP_ADD, OP_REMOVE, OP_UPDATE, OP_AND_THEN, empty18, diff5, combine6, patch6;
var init_patch = __esm({
  "node_modules/effect/dist/esm/internal/fiberRefs/patch.js"() {
    init_Array();
    init_Equal();
    init_Function();
    init_fiberRefs();
    OP_EMPTY2 = "Empty";
    OP_ADD = "Add";
    OP_REMOVE = "Remove";
    OP_UPDATE = "Update";
    OP_AND_THEN = "AndThen";
    empty18 = {
      _tag: OP_EMPTY2
    };
    diff5 = (oldValue, newValue) => {
      const missingLocals = new Map(oldValue.locals);
      let patch9 = empty18;
      for (const [fiberRef, pairs] of newValue.locals.entries()) {
        const newValue2 = headNonEmpty(pairs)[1];
        const old = missingLocals.get(fiberRef);
        if (old !== void 0) {
          const oldValue2 = headNonEmpty(old)[1];
          if (!equals(oldValue2, newValue2)) {
            patch9 = combine6({
              _tag: OP_UPDATE,
              fiberRef,
              patch: fiberRef.diff(oldValue2, newValue2)
            })(patch9);
          }
        } else {
          patch9 = combine6({
            _tag: OP_ADD,
            fiberRef,
            value: newValue2
          })(patch9);
        }
        missingLocals.delete(fiberRef);
      }
      for (const [fiberRef] of missingLocals.entries()) {
        patch9 = combine6({
          _tag: OP_REMOVE,
          fiberRef
        })(patch9);
      }
      return patch9;
    };
    combine6 = /* @__PURE__ */ dual(2, (self, that) => ({
      _tag: OP_AND_THEN,
      first: self,
      second: that
    }));
    patch6 = /* @__PURE__ */ dual(3, (self, fiberId2, oldValue) => {
      let fiberRefs3 = oldValue;
      let patches = of(self);
      while (isNonEmptyReadonlyArray(patches)) {
        const head4 = headNonEmpty(patches);
        const tail = tailNonEmpty(patches);
        switch (head4._tag) {
          case OP_EMPTY2: {
            patches = tail;
            break;
          }
          case OP_ADD: {
            fiberRefs3 = updateAs(fiberRefs3, {
              fiberId: fiberId2,
              fiberRef: head4.fiberRef,
              value: head4.value
            });
            patches = tail;
            break;
          }
          case OP_REMOVE: {
            fiberRefs3 = delete_(fiberRefs3, head4.fiberRef);
            patches = tail;
            break;
          }
          case OP_UPDATE: {
            const value = getOrDefault(fiberRefs3, head4.fiberRef);
            fiberRefs3 = updateAs(fiberRefs3, {
              fiberId: fiberId2,
              fiberRef: head4.fiberRef,
              value: head4.fiberRef.patch(head4.patch)(value)
            });
            patches = tail;
            break;
          }
          case OP_AND_THEN: {
            patches = prepend(head4.first)(prepend(head4.second)(tail));
            break;
          }
        }
      }
      return fiberRefs3;
    });
  }
});

// node_modules/effect/dist/esm/FiberRefsPatch.js
var diff6, patch7;
var init_FiberRefsPatch = __esm({
  "node_modules/effect/dist/esm/FiberRefsPatch.js"() {
    init_patch();
    diff6 = diff5;
    patch7 = patch6;
  }
});

// node_modules/effect/dist/esm/internal/fiberStatus.js
var FiberStatusSymbolKey, FiberStatusTypeId, OP_DONE, OP_RUNNING, OP_SUSPENDED, DoneHash, Done, Running, Suspended, done2, running, suspended, isFiberStatus, isDone;
var init_fiberStatus = __esm({
  "node_modules/effect/dist/esm/internal/fiberStatus.js"() {
    init_Equal();
    init_Function();
    init_Hash();
    init_Predicate();
    FiberStatusSymbolKey = "effect/FiberStatus";
    FiberStatusTypeId = /* @__PURE__ */ Symbol.for(FiberStatusSymbolKey);
    OP_DONE = "Done";
    OP_RUNNING = "Running";
    OP_SUSPENDED = "Suspended";
    DoneHash = /* @__PURE__ */ string(`${FiberStatusSymbolKey}-${OP_DONE}`);
    Done = class {
      [FiberStatusTypeId] = FiberStatusTypeId;
      _tag = OP_DONE;
      [symbol]() {
        return DoneHash;
      }
      [symbol2](that) {
        return isFiberStatus(that) && that._tag === OP_DONE;
      }
    };
    Running = class {
      runtimeFlags;
      [FiberStatusTypeId] = FiberStatusTypeId;
      _tag = OP_RUNNING;
      constructor(runtimeFlags2) {
        this.runtimeFlags = runtimeFlags2;
      }
      [symbol]() {
        return pipe(hash(FiberStatusSymbolKey), combine(hash(this._tag)), combine(hash(this.runtimeFlags)), cached(this));
      }
      [symbol2](that) {
        return isFiberStatus(that) && that._tag === OP_RUNNING && this.runtimeFlags === that.runtimeFlags;
      }
    };
    Suspended = class {
      runtimeFlags;
      blockingOn;
      [FiberStatusTypeId] = FiberStatusTypeId;
      _tag = OP_SUSPENDED;
      constructor(runtimeFlags2, blockingOn) {
        this.runtimeFlags = runtimeFlags2;
        this.blockingOn = blockingOn;
      }
      [symbol]() {
        return pipe(hash(FiberStatusSymbolKey), combine(hash(this._tag)), combine(hash(this.runtimeFlags)), combine(hash(this.blockingOn)), cached(this));
      }
      [symbol2](that) {
        return isFiberStatus(that) && that._tag === OP_SUSPENDED && this.runtimeFlags === that.runtimeFlags && equals(this.blockingOn, that.blockingOn);
      }
    };
    done2 = /* @__PURE__ */ new Done();
    running = (runtimeFlags2) => new Running(runtimeFlags2);
    suspended = (runtimeFlags2, blockingOn) => new Suspended(runtimeFlags2, blockingOn);
    isFiberStatus = (u) => hasProperty(u, FiberStatusTypeId);
    isDone = (self) => self._tag === OP_DONE;
  }
});

// node_modules/effect/dist/esm/FiberStatus.js
var done3, running2, suspended2, isDone2;
var init_FiberStatus = __esm({
  "node_modules/effect/dist/esm/FiberStatus.js"() {
    init_fiberStatus();
    done3 = done2;
    running2 = running;
    suspended2 = suspended;
    isDone2 = isDone;
  }
});

// node_modules/effect/dist/esm/LogLevel.js
var All, Fatal, Error2, Warning, Info, Debug, Trace, None3, Order2, greaterThan2, fromLiteral;
var init_LogLevel = __esm({
  "node_modules/effect/dist/esm/LogLevel.js"() {
    init_Function();
    init_core();
    init_Number();
    init_Order();
    All = logLevelAll;
    Fatal = logLevelFatal;
    Error2 = logLevelError;
    Warning = logLevelWarning;
    Info = logLevelInfo;
    Debug = logLevelDebug;
    Trace = logLevelTrace;
    None3 = logLevelNone;
    Order2 = /* @__PURE__ */ pipe(Order, /* @__PURE__ */ mapInput2((level) => level.ordinal));
    greaterThan2 = /* @__PURE__ */ greaterThan(Order2);
    fromLiteral = (literal2) => {
      switch (literal2) {
        case "All":
          return All;
        case "Debug":
          return Debug;
        case "Error":
          return Error2;
        case "Fatal":
          return Fatal;
        case "Info":
          return Info;
        case "Trace":
          return Trace;
        case "None":
          return None3;
        case "Warning":
          return Warning;
      }
    };
  }
});

// node_modules/effect/dist/esm/Micro.js
function defaultEvaluate(_fiber) {
  return exitDie(`Micro.evaluate: Not implemented`);
}
var TypeId9, MicroExitTypeId, MicroCauseTypeId, microCauseVariance, MicroCauseImpl, Die, causeDie, Interrupt, causeInterrupt, causeIsInterrupt, MicroFiberTypeId, fiberVariance, MicroFiberImpl, fiberMiddleware, fiberInterruptAll, identifier, args, evaluate, successCont, failureCont, ensureCont, Yield, microVariance, MicroProto, makePrimitiveProto, makePrimitive, makeExit, succeed2, failCause2, sync2, suspend2, yieldNowWith, yieldNow2, void_2, withMicroFiber, asyncOptions, asyncFinalizer, async, as2, exit2, flatMap7, OnSuccessProto, map9, isMicroExit, exitSucceed2, exitFailCause2, exitInterrupt2, exitDie, exitVoid2, exitVoidAll, setImmediate, MicroSchedulerDefault, updateContext, provideContext2, MaxOpsBeforeYield, CurrentConcurrency, CurrentScheduler, matchCauseEffect2, OnSuccessAndFailureProto, matchCause2, MicroScopeTypeId, MicroScopeImpl, onExit2, setInterruptible, interruptible3, uninterruptibleMask2, whileLoop2, forEach4, unsafeFork, runFork;
var init_Micro = __esm({
  "node_modules/effect/dist/esm/Micro.js"() {
    init_Array();
    init_Context();
    init_Effectable();
    init_Equal();
    init_Function();
    init_GlobalValue();
    init_Hash();
    init_Inspectable();
    init_context();
    init_Pipeable();
    init_Predicate();
    init_Utils();
    TypeId9 = /* @__PURE__ */ Symbol.for("effect/Micro");
    MicroExitTypeId = /* @__PURE__ */ Symbol.for("effect/Micro/MicroExit");
    MicroCauseTypeId = /* @__PURE__ */ Symbol.for("effect/Micro/MicroCause");
    microCauseVariance = {
      _E: identity
    };
    MicroCauseImpl = class extends globalThis.Error {
      _tag;
      traces;
      [MicroCauseTypeId];
      constructor(_tag, originalError, traces) {
        const causeName = `MicroCause.${_tag}`;
        let name;
        let message;
        let stack;
        if (originalError instanceof globalThis.Error) {
          name = `(${causeName}) ${originalError.name}`;
          message = originalError.message;
          const messageLines = message.split("\n").length;
          stack = originalError.stack ? `(${causeName}) ${originalError.stack.split("\n").slice(0, messageLines + 3).join("\n")}` : `${name}: ${message}`;
        } else {
          name = causeName;
          message = toStringUnknown(originalError, 0);
          stack = `${name}: ${message}`;
        }
        if (traces.length > 0) {
          stack += `
    ${traces.join("\n    ")}`;
        }
        super(message);
        this._tag = _tag;
        this.traces = traces;
        this[MicroCauseTypeId] = microCauseVariance;
        this.name = name;
        this.stack = stack;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
      toString() {
        return this.stack;
      }
      [NodeInspectSymbol]() {
        return this.stack;
      }
    };
    Die = class extends MicroCauseImpl {
      defect;
      constructor(defect, traces = []) {
        super("Die", defect, traces);
        this.defect = defect;
      }
    };
    causeDie = (defect, traces = []) => new Die(defect, traces);
    Interrupt = class extends MicroCauseImpl {
      constructor(traces = []) {
        super("Interrupt", "interrupted", traces);
      }
    };
    causeInterrupt = (traces = []) => new Interrupt(traces);
    causeIsInterrupt = (self) => self._tag === "Interrupt";
    MicroFiberTypeId = /* @__PURE__ */ Symbol.for("effect/Micro/MicroFiber");
    fiberVariance = {
      _A: identity,
      _E: identity
    };
    MicroFiberImpl = class {
      context;
      interruptible;
      [MicroFiberTypeId];
      _stack = [];
      _observers = [];
      _exit;
      _children;
      currentOpCount = 0;
      constructor(context2, interruptible4 = true) {
        this.context = context2;
        this.interruptible = interruptible4;
        this[MicroFiberTypeId] = fiberVariance;
      }
      getRef(ref) {
        return unsafeGetReference(this.context, ref);
      }
      addObserver(cb) {
        if (this._exit) {
          cb(this._exit);
          return constVoid;
        }
        this._observers.push(cb);
        return () => {
          const index = this._observers.indexOf(cb);
          if (index >= 0) {
            this._observers.splice(index, 1);
          }
        };
      }
      _interrupted = false;
      unsafeInterrupt() {
        if (this._exit) {
          return;
        }
        this._interrupted = true;
        if (this.interruptible) {
          this.evaluate(exitInterrupt2);
        }
      }
      unsafePoll() {
        return this._exit;
      }
      evaluate(effect) {
        if (this._exit) {
          return;
        } else if (this._yielded !== void 0) {
          const yielded = this._yielded;
          this._yielded = void 0;
          yielded();
        }
        const exit3 = this.runLoop(effect);
        if (exit3 === Yield) {
          return;
        }
        const interruptChildren = fiberMiddleware.interruptChildren && fiberMiddleware.interruptChildren(this);
        if (interruptChildren !== void 0) {
          return this.evaluate(flatMap7(interruptChildren, () => exit3));
        }
        this._exit = exit3;
        for (let i = 0; i < this._observers.length; i++) {
          this._observers[i](exit3);
        }
        this._observers.length = 0;
      }
      runLoop(effect) {
        let yielding = false;
        let current = effect;
        this.currentOpCount = 0;
        try {
          while (true) {
            this.currentOpCount++;
            if (!yielding && this.getRef(CurrentScheduler).shouldYield(this)) {
              yielding = true;
              const prev = current;
              current = flatMap7(yieldNow2, () => prev);
            }
            current = current[evaluate](this);
            if (current === Yield) {
              const yielded = this._yielded;
              if (MicroExitTypeId in yielded) {
                this._yielded = void 0;
                return yielded;
              }
              return Yield;
            }
          }
        } catch (error) {
          if (!hasProperty(current, evaluate)) {
            return exitDie(`MicroFiber.runLoop: Not a valid effect: ${String(current)}`);
          }
          return exitDie(error);
        }
      }
      getCont(symbol3) {
        while (true) {
          const op = this._stack.pop();
          if (!op) return void 0;
          const cont = op[ensureCont] && op[ensureCont](this);
          if (cont) return {
            [symbol3]: cont
          };
          if (op[symbol3]) return op;
        }
      }
      // cancel the yielded operation, or for the yielded exit value
      _yielded = void 0;
      yieldWith(value) {
        this._yielded = value;
        return Yield;
      }
      children() {
        return this._children ??= /* @__PURE__ */ new Set();
      }
    };
    fiberMiddleware = /* @__PURE__ */ globalValue("effect/Micro/fiberMiddleware", () => ({
      interruptChildren: void 0
    }));
    fiberInterruptAll = (fibers) => suspend2(() => {
      for (const fiber of fibers) fiber.unsafeInterrupt();
      const iter = fibers[Symbol.iterator]();
      const wait = suspend2(() => {
        let result = iter.next();
        while (!result.done) {
          if (result.value.unsafePoll()) {
            result = iter.next();
            continue;
          }
          const fiber = result.value;
          return async((resume2) => {
            fiber.addObserver((_) => {
              resume2(wait);
            });
          });
        }
        return exitVoid2;
      });
      return wait;
    });
    identifier = /* @__PURE__ */ Symbol.for("effect/Micro/identifier");
    args = /* @__PURE__ */ Symbol.for("effect/Micro/args");
    evaluate = /* @__PURE__ */ Symbol.for("effect/Micro/evaluate");
    successCont = /* @__PURE__ */ Symbol.for("effect/Micro/successCont");
    failureCont = /* @__PURE__ */ Symbol.for("effect/Micro/failureCont");
    ensureCont = /* @__PURE__ */ Symbol.for("effect/Micro/ensureCont");
    Yield = /* @__PURE__ */ Symbol.for("effect/Micro/Yield");
    microVariance = {
      _A: identity,
      _E: identity,
      _R: identity
    };
    MicroProto = {
      ...EffectPrototype2,
      _op: "Micro",
      [TypeId9]: microVariance,
      pipe() {
        return pipeArguments(this, arguments);
      },
      [Symbol.iterator]() {
        return new SingleShotGen(new YieldWrap(this));
      },
      toJSON() {
        return {
          _id: "Micro",
          op: this[identifier],
          ...args in this ? {
            args: this[args]
          } : void 0
        };
      },
      toString() {
        return format(this);
      },
      [NodeInspectSymbol]() {
        return format(this);
      }
    };
    makePrimitiveProto = (options) => ({
      ...MicroProto,
      [identifier]: options.op,
      [evaluate]: options.eval ?? defaultEvaluate,
      [successCont]: options.contA,
      [failureCont]: options.contE,
      [ensureCont]: options.ensure
    });
    makePrimitive = (options) => {
      const Proto = makePrimitiveProto(options);
      return function() {
        const self = Object.create(Proto);
        self[args] = options.single === false ? arguments : arguments[0];
        return self;
      };
    };
    makeExit = (options) => {
      const Proto = {
        ...makePrimitiveProto(options),
        [MicroExitTypeId]: MicroExitTypeId,
        _tag: options.op,
        get [options.prop]() {
          return this[args];
        },
        toJSON() {
          return {
            _id: "MicroExit",
            _tag: options.op,
            [options.prop]: this[args]
          };
        },
        [symbol2](that) {
          return isMicroExit(that) && that._tag === options.op && equals(this[args], that[args]);
        },
        [symbol]() {
          return cached(this, combine(string(options.op))(hash(this[args])));
        }
      };
      return function(value) {
        const self = Object.create(Proto);
        self[args] = value;
        self[successCont] = void 0;
        self[failureCont] = void 0;
        self[ensureCont] = void 0;
        return self;
      };
    };
    succeed2 = /* @__PURE__ */ makeExit({
      op: "Success",
      prop: "value",
      eval(fiber) {
        const cont = fiber.getCont(successCont);
        return cont ? cont[successCont](this[args], fiber) : fiber.yieldWith(this);
      }
    });
    failCause2 = /* @__PURE__ */ makeExit({
      op: "Failure",
      prop: "cause",
      eval(fiber) {
        let cont = fiber.getCont(failureCont);
        while (causeIsInterrupt(this[args]) && cont && fiber.interruptible) {
          cont = fiber.getCont(failureCont);
        }
        return cont ? cont[failureCont](this[args], fiber) : fiber.yieldWith(this);
      }
    });
    sync2 = /* @__PURE__ */ makePrimitive({
      op: "Sync",
      eval(fiber) {
        const value = this[args]();
        const cont = fiber.getCont(successCont);
        return cont ? cont[successCont](value, fiber) : fiber.yieldWith(exitSucceed2(value));
      }
    });
    suspend2 = /* @__PURE__ */ makePrimitive({
      op: "Suspend",
      eval(_fiber) {
        return this[args]();
      }
    });
    yieldNowWith = /* @__PURE__ */ makePrimitive({
      op: "Yield",
      eval(fiber) {
        let resumed = false;
        fiber.getRef(CurrentScheduler).scheduleTask(() => {
          if (resumed) return;
          fiber.evaluate(exitVoid2);
        }, this[args] ?? 0);
        return fiber.yieldWith(() => {
          resumed = true;
        });
      }
    });
    yieldNow2 = /* @__PURE__ */ yieldNowWith(0);
    void_2 = /* @__PURE__ */ succeed2(void 0);
    withMicroFiber = /* @__PURE__ */ makePrimitive({
      op: "WithMicroFiber",
      eval(fiber) {
        return this[args](fiber);
      }
    });
    asyncOptions = /* @__PURE__ */ makePrimitive({
      op: "Async",
      single: false,
      eval(fiber) {
        const register = this[args][0];
        let resumed = false;
        let yielded = false;
        const controller = this[args][1] ? new AbortController() : void 0;
        const onCancel = register((effect) => {
          if (resumed) return;
          resumed = true;
          if (yielded) {
            fiber.evaluate(effect);
          } else {
            yielded = effect;
          }
        }, controller?.signal);
        if (yielded !== false) return yielded;
        yielded = true;
        fiber._yielded = () => {
          resumed = true;
        };
        if (controller === void 0 && onCancel === void 0) {
          return Yield;
        }
        fiber._stack.push(asyncFinalizer(() => {
          resumed = true;
          controller?.abort();
          return onCancel ?? exitVoid2;
        }));
        return Yield;
      }
    });
    asyncFinalizer = /* @__PURE__ */ makePrimitive({
      op: "AsyncFinalizer",
      ensure(fiber) {
        if (fiber.interruptible) {
          fiber.interruptible = false;
          fiber._stack.push(setInterruptible(true));
        }
      },
      contE(cause2, _fiber) {
        return causeIsInterrupt(cause2) ? flatMap7(this[args](), () => failCause2(cause2)) : failCause2(cause2);
      }
    });
    async = (register) => asyncOptions(register, register.length >= 2);
    as2 = /* @__PURE__ */ dual(2, (self, value) => map9(self, (_) => value));
    exit2 = (self) => matchCause2(self, {
      onFailure: exitFailCause2,
      onSuccess: exitSucceed2
    });
    flatMap7 = /* @__PURE__ */ dual(2, (self, f) => {
      const onSuccess = Object.create(OnSuccessProto);
      onSuccess[args] = self;
      onSuccess[successCont] = f;
      return onSuccess;
    });
    OnSuccessProto = /* @__PURE__ */ makePrimitiveProto({
      op: "OnSuccess",
      eval(fiber) {
        fiber._stack.push(this);
        return this[args];
      }
    });
    map9 = /* @__PURE__ */ dual(2, (self, f) => flatMap7(self, (a) => succeed2(f(a))));
    isMicroExit = (u) => hasProperty(u, MicroExitTypeId);
    exitSucceed2 = succeed2;
    exitFailCause2 = failCause2;
    exitInterrupt2 = /* @__PURE__ */ exitFailCause2(/* @__PURE__ */ causeInterrupt());
    exitDie = (defect) => exitFailCause2(causeDie(defect));
    exitVoid2 = /* @__PURE__ */ exitSucceed2(void 0);
    exitVoidAll = (exits) => {
      for (const exit3 of exits) {
        if (exit3._tag === "Failure") {
          return exit3;
        }
      }
      return exitVoid2;
    };
    setImmediate = "setImmediate" in globalThis ? globalThis.setImmediate : (f) => setTimeout(f, 0);
    MicroSchedulerDefault = class {
      tasks = [];
      running = false;
      /**
       * @since 3.5.9
       */
      scheduleTask(task, _priority) {
        this.tasks.push(task);
        if (!this.running) {
          this.running = true;
          setImmediate(this.afterScheduled);
        }
      }
      /**
       * @since 3.5.9
       */
      afterScheduled = () => {
        this.running = false;
        this.runTasks();
      };
      /**
       * @since 3.5.9
       */
      runTasks() {
        const tasks = this.tasks;
        this.tasks = [];
        for (let i = 0, len = tasks.length; i < len; i++) {
          tasks[i]();
        }
      }
      /**
       * @since 3.5.9
       */
      shouldYield(fiber) {
        return fiber.currentOpCount >= fiber.getRef(MaxOpsBeforeYield);
      }
      /**
       * @since 3.5.9
       */
      flush() {
        while (this.tasks.length > 0) {
          this.runTasks();
        }
      }
    };
    updateContext = /* @__PURE__ */ dual(2, (self, f) => withMicroFiber((fiber) => {
      const prev = fiber.context;
      fiber.context = f(prev);
      return onExit2(self, () => {
        fiber.context = prev;
        return void_2;
      });
    }));
    provideContext2 = /* @__PURE__ */ dual(2, (self, provided) => updateContext(self, merge3(provided)));
    MaxOpsBeforeYield = class extends (/* @__PURE__ */ Reference2()("effect/Micro/currentMaxOpsBeforeYield", {
      defaultValue: () => 2048
    })) {
    };
    CurrentConcurrency = class extends (/* @__PURE__ */ Reference2()("effect/Micro/currentConcurrency", {
      defaultValue: () => "unbounded"
    })) {
    };
    CurrentScheduler = class extends (/* @__PURE__ */ Reference2()("effect/Micro/currentScheduler", {
      defaultValue: () => new MicroSchedulerDefault()
    })) {
    };
    matchCauseEffect2 = /* @__PURE__ */ dual(2, (self, options) => {
      const primitive = Object.create(OnSuccessAndFailureProto);
      primitive[args] = self;
      primitive[successCont] = options.onSuccess;
      primitive[failureCont] = options.onFailure;
      return primitive;
    });
    OnSuccessAndFailureProto = /* @__PURE__ */ makePrimitiveProto({
      op: "OnSuccessAndFailure",
      eval(fiber) {
        fiber._stack.push(this);
        return this[args];
      }
    });
    matchCause2 = /* @__PURE__ */ dual(2, (self, options) => matchCauseEffect2(self, {
      onFailure: (cause2) => sync2(() => options.onFailure(cause2)),
      onSuccess: (value) => sync2(() => options.onSuccess(value))
    }));
    MicroScopeTypeId = /* @__PURE__ */ Symbol.for("effect/Micro/MicroScope");
    MicroScopeImpl = class _MicroScopeImpl {
      [MicroScopeTypeId];
      state = {
        _tag: "Open",
        finalizers: /* @__PURE__ */ new Set()
      };
      constructor() {
        this[MicroScopeTypeId] = MicroScopeTypeId;
      }
      unsafeAddFinalizer(finalizer) {
        if (this.state._tag === "Open") {
          this.state.finalizers.add(finalizer);
        }
      }
      addFinalizer(finalizer) {
        return suspend2(() => {
          if (this.state._tag === "Open") {
            this.state.finalizers.add(finalizer);
            return void_2;
          }
          return finalizer(this.state.exit);
        });
      }
      unsafeRemoveFinalizer(finalizer) {
        if (this.state._tag === "Open") {
          this.state.finalizers.delete(finalizer);
        }
      }
      close(microExit) {
        return suspend2(() => {
          if (this.state._tag === "Open") {
            const finalizers = Array.from(this.state.finalizers).reverse();
            this.state = {
              _tag: "Closed",
              exit: microExit
            };
            return flatMap7(forEach4(finalizers, (finalizer) => exit2(finalizer(microExit))), exitVoidAll);
          }
          return void_2;
        });
      }
      get fork() {
        return sync2(() => {
          const newScope = new _MicroScopeImpl();
          if (this.state._tag === "Closed") {
            newScope.state = this.state;
            return newScope;
          }
          function fin(exit3) {
            return newScope.close(exit3);
          }
          this.state.finalizers.add(fin);
          newScope.unsafeAddFinalizer((_) => sync2(() => this.unsafeRemoveFinalizer(fin)));
          return newScope;
        });
      }
    };
    onExit2 = /* @__PURE__ */ dual(2, (self, f) => uninterruptibleMask2((restore) => matchCauseEffect2(restore(self), {
      onFailure: (cause2) => flatMap7(f(exitFailCause2(cause2)), () => failCause2(cause2)),
      onSuccess: (a) => flatMap7(f(exitSucceed2(a)), () => succeed2(a))
    })));
    setInterruptible = /* @__PURE__ */ makePrimitive({
      op: "SetInterruptible",
      ensure(fiber) {
        fiber.interruptible = this[args];
        if (fiber._interrupted && fiber.interruptible) {
          return () => exitInterrupt2;
        }
      }
    });
    interruptible3 = (self) => withMicroFiber((fiber) => {
      if (fiber.interruptible) return self;
      fiber.interruptible = true;
      fiber._stack.push(setInterruptible(false));
      if (fiber._interrupted) return exitInterrupt2;
      return self;
    });
    uninterruptibleMask2 = (f) => withMicroFiber((fiber) => {
      if (!fiber.interruptible) return f(identity);
      fiber.interruptible = false;
      fiber._stack.push(setInterruptible(true));
      return f(interruptible3);
    });
    whileLoop2 = /* @__PURE__ */ makePrimitive({
      op: "While",
      contA(value, fiber) {
        this[args].step(value);
        if (this[args].while()) {
          fiber._stack.push(this);
          return this[args].body();
        }
        return exitVoid2;
      },
      eval(fiber) {
        if (this[args].while()) {
          fiber._stack.push(this);
          return this[args].body();
        }
        return exitVoid2;
      }
    });
    forEach4 = (iterable, f, options) => withMicroFiber((parent) => {
      const concurrencyOption = options?.concurrency === "inherit" ? parent.getRef(CurrentConcurrency) : options?.concurrency ?? 1;
      const concurrency = concurrencyOption === "unbounded" ? Number.POSITIVE_INFINITY : Math.max(1, concurrencyOption);
      const items = fromIterable(iterable);
      let length = items.length;
      if (length === 0) {
        return options?.discard ? void_2 : succeed2([]);
      }
      const out = options?.discard ? void 0 : new Array(length);
      let index = 0;
      if (concurrency === 1) {
        return as2(whileLoop2({
          while: () => index < items.length,
          body: () => f(items[index], index),
          step: out ? (b) => out[index++] = b : (_) => index++
        }), out);
      }
      return async((resume2) => {
        const fibers = /* @__PURE__ */ new Set();
        let result = void 0;
        let inProgress = 0;
        let doneCount = 0;
        let pumping = false;
        let interrupted = false;
        function pump() {
          pumping = true;
          while (inProgress < concurrency && index < length) {
            const currentIndex = index;
            const item = items[currentIndex];
            index++;
            inProgress++;
            try {
              const child = unsafeFork(parent, f(item, currentIndex), true, true);
              fibers.add(child);
              child.addObserver((exit3) => {
                fibers.delete(child);
                if (interrupted) {
                  return;
                } else if (exit3._tag === "Failure") {
                  if (result === void 0) {
                    result = exit3;
                    length = index;
                    fibers.forEach((fiber) => fiber.unsafeInterrupt());
                  }
                } else if (out !== void 0) {
                  out[currentIndex] = exit3.value;
                }
                doneCount++;
                inProgress--;
                if (doneCount === length) {
                  resume2(result ?? succeed2(out));
                } else if (!pumping && inProgress < concurrency) {
                  pump();
                }
              });
            } catch (err) {
              result = exitDie(err);
              length = index;
              fibers.forEach((fiber) => fiber.unsafeInterrupt());
            }
          }
          pumping = false;
        }
        pump();
        return suspend2(() => {
          interrupted = true;
          index = length;
          return fiberInterruptAll(fibers);
        });
      });
    });
    unsafeFork = (parent, effect, immediate = false, daemon = false) => {
      const child = new MicroFiberImpl(parent.context, parent.interruptible);
      if (!daemon) {
        parent.children().add(child);
        child.addObserver(() => parent.children().delete(child));
      }
      if (immediate) {
        child.evaluate(effect);
      } else {
        parent.getRef(CurrentScheduler).scheduleTask(() => child.evaluate(effect), 0);
      }
      return child;
    };
    runFork = (effect, options) => {
      const fiber = new MicroFiberImpl(CurrentScheduler.context(options?.scheduler ?? new MicroSchedulerDefault()));
      fiber.evaluate(effect);
      if (options?.signal) {
        if (options.signal.aborted) {
          fiber.unsafeInterrupt();
        } else {
          const abort = () => fiber.unsafeInterrupt();
          options.signal.addEventListener("abort", abort, {
            once: true
          });
          fiber.addObserver(() => options.signal.removeEventListener("abort", abort));
        }
      }
      return fiber;
    };
  }
});

// node_modules/effect/dist/esm/Scheduler.js
var SchedulerRunner, PriorityBuckets, MixedScheduler, defaultScheduler, currentScheduler;
var init_Scheduler = __esm({
  "node_modules/effect/dist/esm/Scheduler.js"() {
    init_GlobalValue();
    init_core();
    SchedulerRunner = class _SchedulerRunner {
      scheduleDrain;
      running = false;
      tasks = /* @__PURE__ */ new PriorityBuckets();
      constructor(scheduleDrain) {
        this.scheduleDrain = scheduleDrain;
      }
      starveInternal = (depth) => {
        const tasks = this.tasks.buckets;
        this.tasks.buckets = [];
        for (const [_, toRun] of tasks) {
          for (let i = 0; i < toRun.length; i++) {
            toRun[i]();
          }
        }
        if (this.tasks.buckets.length === 0) {
          this.running = false;
        } else {
          this.starve(depth);
        }
      };
      starve(depth = 0) {
        this.scheduleDrain(depth, this.starveInternal);
      }
      scheduleTask(task, priority) {
        this.tasks.scheduleTask(task, priority);
        if (!this.running) {
          this.running = true;
          this.starve();
        }
      }
      /**
       * @since 3.20.0
       * @category constructors
       */
      static cached(scheduleDrain) {
        const fallback = new _SchedulerRunner(scheduleDrain);
        const runners2 = /* @__PURE__ */ new WeakMap();
        return (fiber) => {
          if (fiber === void 0) {
            return fallback;
          }
          let runner = runners2.get(fiber);
          if (runner === void 0) {
            runner = new _SchedulerRunner(scheduleDrain);
            runners2.set(fiber, runner);
          }
          return runner;
        };
      }
    };
    PriorityBuckets = class {
      /**
       * @since 2.0.0
       */
      buckets = [];
      /**
       * @since 2.0.0
       */
      scheduleTask(task, priority) {
        const length = this.buckets.length;
        let bucket = void 0;
        let index = 0;
        for (; index < length; index++) {
          if (this.buckets[index][0] <= priority) {
            bucket = this.buckets[index];
          } else {
            break;
          }
        }
        if (bucket && bucket[0] === priority) {
          bucket[1].push(task);
        } else if (index === length) {
          this.buckets.push([priority, [task]]);
        } else {
          this.buckets.splice(index, 0, [priority, [task]]);
        }
      }
    };
    MixedScheduler = class {
      maxNextTickBeforeTimer;
      getRunner = /* @__PURE__ */ SchedulerRunner.cached((depth, drain) => {
        if (depth >= this.maxNextTickBeforeTimer) {
          setTimeout(() => drain(0), 0);
        } else {
          Promise.resolve(void 0).then(() => drain(depth + 1));
        }
      });
      constructor(maxNextTickBeforeTimer) {
        this.maxNextTickBeforeTimer = maxNextTickBeforeTimer;
      }
      /**
       * @since 2.0.0
       */
      shouldYield(fiber) {
        return fiber.currentOpCount > fiber.getFiberRef(currentMaxOpsBeforeYield) ? fiber.getFiberRef(currentSchedulingPriority) : false;
      }
      /**
       * @since 2.0.0
       */
      scheduleTask(task, priority, fiber) {
        this.getRunner(fiber).scheduleTask(task, priority);
      }
    };
    defaultScheduler = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/Scheduler/defaultScheduler"), () => new MixedScheduler(2048));
    currentScheduler = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentScheduler"), () => fiberRefUnsafeMake(defaultScheduler));
  }
});

// node_modules/effect/dist/esm/internal/completedRequestMap.js
var currentRequestMap;
var init_completedRequestMap = __esm({
  "node_modules/effect/dist/esm/internal/completedRequestMap.js"() {
    init_GlobalValue();
    init_core();
    currentRequestMap = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentRequestMap"), () => fiberRefUnsafeMake(/* @__PURE__ */ new Map()));
  }
});

// node_modules/effect/dist/esm/Clock.js
var Clock;
var init_Clock = __esm({
  "node_modules/effect/dist/esm/Clock.js"() {
    init_clock();
    Clock = clockTag;
  }
});

// node_modules/effect/dist/esm/internal/logSpan.js
var formatLabel, render;
var init_logSpan = __esm({
  "node_modules/effect/dist/esm/internal/logSpan.js"() {
    formatLabel = (key) => key.replace(/[\s="]/g, "_");
    render = (now) => (self) => {
      const label = formatLabel(self.label);
      return `${label}=${now - self.startTime}ms`;
    };
  }
});

// node_modules/effect/dist/esm/internal/metric/label.js
var MetricLabelSymbolKey, MetricLabelTypeId, MetricLabelImpl, make22, isMetricLabel;
var init_label = __esm({
  "node_modules/effect/dist/esm/internal/metric/label.js"() {
    init_Equal();
    init_Hash();
    init_Pipeable();
    init_Predicate();
    MetricLabelSymbolKey = "effect/MetricLabel";
    MetricLabelTypeId = /* @__PURE__ */ Symbol.for(MetricLabelSymbolKey);
    MetricLabelImpl = class {
      key;
      value;
      [MetricLabelTypeId] = MetricLabelTypeId;
      _hash;
      constructor(key, value) {
        this.key = key;
        this.value = value;
        this._hash = string(MetricLabelSymbolKey + this.key + this.value);
      }
      [symbol]() {
        return this._hash;
      }
      [symbol2](that) {
        return isMetricLabel(that) && this.key === that.key && this.value === that.value;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    make22 = (key, value) => {
      return new MetricLabelImpl(key, value);
    };
    isMetricLabel = (u) => hasProperty(u, MetricLabelTypeId);
  }
});

// node_modules/effect/dist/esm/internal/core-effect.js
var provideService, tryPromise, bigint02, filterDisablePropagation, unsafeMakeSpan, endSpan, useSpan, withParentSpan, withSpan;
var init_core_effect = __esm({
  "node_modules/effect/dist/esm/internal/core-effect.js"() {
    init_Array();
    init_Chunk();
    init_Clock();
    init_Context();
    init_FiberRefs();
    init_Function();
    init_HashMap();
    init_Option();
    init_cause2();
    init_clock();
    init_core();
    init_defaultServices();
    init_tracer();
    provideService = /* @__PURE__ */ dual(3, (self, tag, service) => contextWithEffect((env) => provideContext(self, add4(env, tag, service))));
    tryPromise = (arg) => {
      let evaluate2;
      let catcher = void 0;
      if (typeof arg === "function") {
        evaluate2 = arg;
      } else {
        evaluate2 = arg.try;
        catcher = arg.catch;
      }
      const fail3 = (e) => catcher ? failSync(() => catcher(e)) : fail2(new UnknownException(e, "An unknown error occurred in Effect.tryPromise"));
      if (evaluate2.length >= 1) {
        return async_((resolve, signal) => {
          try {
            evaluate2(signal).then((a) => resolve(succeed(a)), (e) => resolve(fail3(e)));
          } catch (e) {
            resolve(fail3(e));
          }
        });
      }
      return async_((resolve) => {
        try {
          evaluate2().then((a) => resolve(succeed(a)), (e) => resolve(fail3(e)));
        } catch (e) {
          resolve(fail3(e));
        }
      });
    };
    bigint02 = /* @__PURE__ */ BigInt(0);
    filterDisablePropagation = /* @__PURE__ */ flatMap((span2) => get4(span2.context, DisablePropagation) ? span2._tag === "Span" ? filterDisablePropagation(span2.parent) : none2() : some2(span2));
    unsafeMakeSpan = (fiber, name, options) => {
      const disablePropagation = !fiber.getFiberRef(currentTracerEnabled) || options.context && get4(options.context, DisablePropagation);
      const context2 = fiber.getFiberRef(currentContext);
      const parent = options.parent ? some2(options.parent) : options.root ? none2() : filterDisablePropagation(getOption2(context2, spanTag));
      let span2;
      if (disablePropagation) {
        span2 = noopSpan({
          name,
          parent,
          context: add4(options.context ?? empty8(), DisablePropagation, true)
        });
      } else {
        const services = fiber.getFiberRef(currentServices);
        const tracer2 = get4(services, tracerTag);
        const clock2 = get4(services, Clock);
        const timingEnabled = fiber.getFiberRef(currentTracerTimingEnabled);
        const fiberRefs3 = fiber.getFiberRefs();
        const annotationsFromEnv = get8(fiberRefs3, currentTracerSpanAnnotations);
        const linksFromEnv = get8(fiberRefs3, currentTracerSpanLinks);
        const links = linksFromEnv._tag === "Some" ? options.links !== void 0 ? [...toReadonlyArray(linksFromEnv.value), ...options.links ?? []] : toReadonlyArray(linksFromEnv.value) : options.links ?? empty();
        span2 = tracer2.span(name, parent, options.context ?? empty8(), links, timingEnabled ? clock2.unsafeCurrentTimeNanos() : bigint02, options.kind ?? "internal", options);
        if (annotationsFromEnv._tag === "Some") {
          forEach3(annotationsFromEnv.value, (value, key) => span2.attribute(key, value));
        }
        if (options.attributes !== void 0) {
          Object.entries(options.attributes).forEach(([k, v]) => span2.attribute(k, v));
        }
      }
      if (typeof options.captureStackTrace === "function") {
        spanToTrace.set(span2, options.captureStackTrace);
      }
      return span2;
    };
    endSpan = (span2, exit3, clock2, timingEnabled) => sync(() => {
      if (span2.status._tag === "Ended") {
        return;
      }
      if (exitIsFailure(exit3) && spanToTrace.has(span2)) {
        span2.attribute("code.stacktrace", spanToTrace.get(span2)());
      }
      span2.end(timingEnabled ? clock2.unsafeCurrentTimeNanos() : bigint02, exit3);
    });
    useSpan = (name, ...args2) => {
      const options = addSpanStackTrace(args2.length === 1 ? void 0 : args2[0]);
      const evaluate2 = args2[args2.length - 1];
      return withFiberRuntime((fiber) => {
        const span2 = unsafeMakeSpan(fiber, name, options);
        const timingEnabled = fiber.getFiberRef(currentTracerTimingEnabled);
        const clock2 = get4(fiber.getFiberRef(currentServices), clockTag);
        return onExit(evaluate2(span2), (exit3) => endSpan(span2, exit3, clock2, timingEnabled));
      });
    };
    withParentSpan = /* @__PURE__ */ dual(2, (self, span2) => provideService(self, spanTag, span2));
    withSpan = function() {
      const dataFirst = typeof arguments[0] !== "string";
      const name = dataFirst ? arguments[1] : arguments[0];
      const options = addSpanStackTrace(dataFirst ? arguments[2] : arguments[1]);
      if (dataFirst) {
        const self = arguments[0];
        return useSpan(name, options, (span2) => withParentSpan(self, span2));
      }
      return (self) => useSpan(name, options, (span2) => withParentSpan(self, span2));
    };
  }
});

// node_modules/effect/dist/esm/internal/fiberMessage.js
var OP_INTERRUPT_SIGNAL, OP_STATEFUL, OP_RESUME, OP_YIELD_NOW, interruptSignal, stateful, resume, yieldNow3;
var init_fiberMessage = __esm({
  "node_modules/effect/dist/esm/internal/fiberMessage.js"() {
    OP_INTERRUPT_SIGNAL = "InterruptSignal";
    OP_STATEFUL = "Stateful";
    OP_RESUME = "Resume";
    OP_YIELD_NOW = "YieldNow";
    interruptSignal = (cause2) => ({
      _tag: OP_INTERRUPT_SIGNAL,
      cause: cause2
    });
    stateful = (onFiber) => ({
      _tag: OP_STATEFUL,
      onFiber
    });
    resume = (effect) => ({
      _tag: OP_RESUME,
      effect
    });
    yieldNow3 = () => ({
      _tag: OP_YIELD_NOW
    });
  }
});

// node_modules/effect/dist/esm/internal/fiberScope.js
var FiberScopeSymbolKey, FiberScopeTypeId, Global, Local, unsafeMake4, globalScope;
var init_fiberScope = __esm({
  "node_modules/effect/dist/esm/internal/fiberScope.js"() {
    init_FiberId();
    init_GlobalValue();
    init_fiberMessage();
    FiberScopeSymbolKey = "effect/FiberScope";
    FiberScopeTypeId = /* @__PURE__ */ Symbol.for(FiberScopeSymbolKey);
    Global = class {
      [FiberScopeTypeId] = FiberScopeTypeId;
      fiberId = none4;
      roots = /* @__PURE__ */ new Set();
      add(_runtimeFlags, child) {
        this.roots.add(child);
        child.addObserver(() => {
          this.roots.delete(child);
        });
      }
    };
    Local = class {
      fiberId;
      parent;
      [FiberScopeTypeId] = FiberScopeTypeId;
      constructor(fiberId2, parent) {
        this.fiberId = fiberId2;
        this.parent = parent;
      }
      add(_runtimeFlags, child) {
        this.parent.tell(stateful((parentFiber) => {
          parentFiber.addChild(child);
          child.addObserver(() => {
            parentFiber.removeChild(child);
          });
        }));
      }
    };
    unsafeMake4 = (fiber) => {
      return new Local(fiber.id(), fiber);
    };
    globalScope = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberScope/Global"), () => new Global());
  }
});

// node_modules/effect/dist/esm/internal/fiber.js
var FiberSymbolKey, FiberTypeId, fiberVariance2, fiberProto, RuntimeFiberSymbolKey, RuntimeFiberTypeId, join2, _never, currentFiberURI;
var init_fiber = __esm({
  "node_modules/effect/dist/esm/internal/fiber.js"() {
    init_FiberId();
    init_Option();
    init_Pipeable();
    init_core();
    init_effectable();
    FiberSymbolKey = "effect/Fiber";
    FiberTypeId = /* @__PURE__ */ Symbol.for(FiberSymbolKey);
    fiberVariance2 = {
      /* c8 ignore next */
      _E: (_) => _,
      /* c8 ignore next */
      _A: (_) => _
    };
    fiberProto = {
      [FiberTypeId]: fiberVariance2,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    RuntimeFiberSymbolKey = "effect/Fiber";
    RuntimeFiberTypeId = /* @__PURE__ */ Symbol.for(RuntimeFiberSymbolKey);
    join2 = (self) => zipLeft(flatten3(self.await), self.inheritAll);
    _never = {
      ...CommitPrototype,
      commit() {
        return join2(this);
      },
      ...fiberProto,
      id: () => none4,
      await: never,
      children: /* @__PURE__ */ succeed([]),
      inheritAll: never,
      poll: /* @__PURE__ */ succeed(/* @__PURE__ */ none2()),
      interruptAsFork: () => never
    };
    currentFiberURI = "effect/FiberCurrent";
  }
});

// node_modules/effect/dist/esm/internal/logger.js
var LoggerSymbolKey, LoggerTypeId, loggerVariance, makeLogger, none6, textOnly, format3, escapeDoubleQuotes, stringLogger, colors, logLevelColors, hasProcessStdout, processStdoutIsTTY, hasProcessStdoutOrDeno;
var init_logger = __esm({
  "node_modules/effect/dist/esm/internal/logger.js"() {
    init_Array();
    init_Function();
    init_Inspectable();
    init_Pipeable();
    init_cause2();
    init_fiberId();
    init_logSpan();
    LoggerSymbolKey = "effect/Logger";
    LoggerTypeId = /* @__PURE__ */ Symbol.for(LoggerSymbolKey);
    loggerVariance = {
      /* c8 ignore next */
      _Message: (_) => _,
      /* c8 ignore next */
      _Output: (_) => _
    };
    makeLogger = (log2) => ({
      [LoggerTypeId]: loggerVariance,
      log: log2,
      pipe() {
        return pipeArguments(this, arguments);
      }
    });
    none6 = {
      [LoggerTypeId]: loggerVariance,
      log: constVoid,
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    textOnly = /^[^\s"=]*$/;
    format3 = (quoteValue, whitespace) => ({
      annotations,
      cause: cause2,
      date,
      fiberId: fiberId2,
      logLevel,
      message,
      spans
    }) => {
      const formatValue = (value) => value.match(textOnly) ? value : quoteValue(value);
      const format4 = (label, value) => `${formatLabel(label)}=${formatValue(value)}`;
      const append3 = (label, value) => " " + format4(label, value);
      let out = format4("timestamp", date.toISOString());
      out += append3("level", logLevel.label);
      out += append3("fiber", threadName(fiberId2));
      const messages = ensure(message);
      for (let i = 0; i < messages.length; i++) {
        out += append3("message", toStringUnknown(messages[i], whitespace));
      }
      if (!isEmptyType(cause2)) {
        out += append3("cause", pretty(cause2, {
          renderErrorCause: true
        }));
      }
      for (const span2 of spans) {
        out += " " + render(date.getTime())(span2);
      }
      for (const [label, value] of annotations) {
        out += append3(label, toStringUnknown(value, whitespace));
      }
      return out;
    };
    escapeDoubleQuotes = (s) => `"${s.replace(/\\([\s\S])|(")/g, "\\$1$2")}"`;
    stringLogger = /* @__PURE__ */ makeLogger(/* @__PURE__ */ format3(escapeDoubleQuotes));
    colors = {
      bold: "1",
      red: "31",
      green: "32",
      yellow: "33",
      blue: "34",
      cyan: "36",
      white: "37",
      gray: "90",
      black: "30",
      bgBrightRed: "101"
    };
    logLevelColors = {
      None: [],
      All: [],
      Trace: [colors.gray],
      Debug: [colors.blue],
      Info: [colors.green],
      Warning: [colors.yellow],
      Error: [colors.red],
      Fatal: [colors.bgBrightRed, colors.black]
    };
    hasProcessStdout = typeof process === "object" && process !== null && typeof process.stdout === "object" && process.stdout !== null;
    processStdoutIsTTY = hasProcessStdout && process.stdout.isTTY === true;
    hasProcessStdoutOrDeno = hasProcessStdout || "Deno" in globalThis;
  }
});

// node_modules/effect/dist/esm/internal/metric/boundaries.js
var MetricBoundariesSymbolKey, MetricBoundariesTypeId, MetricBoundariesImpl, isMetricBoundaries, fromIterable7, exponential;
var init_boundaries = __esm({
  "node_modules/effect/dist/esm/internal/metric/boundaries.js"() {
    init_Array();
    init_Chunk();
    init_Equal();
    init_Function();
    init_Hash();
    init_Pipeable();
    init_Predicate();
    MetricBoundariesSymbolKey = "effect/MetricBoundaries";
    MetricBoundariesTypeId = /* @__PURE__ */ Symbol.for(MetricBoundariesSymbolKey);
    MetricBoundariesImpl = class {
      values;
      [MetricBoundariesTypeId] = MetricBoundariesTypeId;
      constructor(values3) {
        this.values = values3;
        this._hash = pipe(string(MetricBoundariesSymbolKey), combine(array2(this.values)));
      }
      _hash;
      [symbol]() {
        return this._hash;
      }
      [symbol2](u) {
        return isMetricBoundaries(u) && equals(this.values, u.values);
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    isMetricBoundaries = (u) => hasProperty(u, MetricBoundariesTypeId);
    fromIterable7 = (iterable) => {
      const values3 = pipe(iterable, appendAll(of2(Number.POSITIVE_INFINITY)), dedupe);
      return new MetricBoundariesImpl(values3);
    };
    exponential = (options) => pipe(makeBy(options.count - 1, (i) => options.start * Math.pow(options.factor, i)), unsafeFromArray, fromIterable7);
  }
});

// node_modules/effect/dist/esm/internal/metric/keyType.js
var MetricKeyTypeSymbolKey, MetricKeyTypeTypeId, CounterKeyTypeSymbolKey, CounterKeyTypeTypeId, FrequencyKeyTypeSymbolKey, FrequencyKeyTypeTypeId, GaugeKeyTypeSymbolKey, GaugeKeyTypeTypeId, HistogramKeyTypeSymbolKey, HistogramKeyTypeTypeId, SummaryKeyTypeSymbolKey, SummaryKeyTypeTypeId, metricKeyTypeVariance, CounterKeyType, FrequencyKeyTypeHash, FrequencyKeyType, GaugeKeyTypeHash, GaugeKeyType, HistogramKeyType, SummaryKeyType, counter, histogram, isCounterKey, isFrequencyKey, isGaugeKey, isHistogramKey, isSummaryKey;
var init_keyType = __esm({
  "node_modules/effect/dist/esm/internal/metric/keyType.js"() {
    init_Equal();
    init_Function();
    init_Hash();
    init_Pipeable();
    init_Predicate();
    MetricKeyTypeSymbolKey = "effect/MetricKeyType";
    MetricKeyTypeTypeId = /* @__PURE__ */ Symbol.for(MetricKeyTypeSymbolKey);
    CounterKeyTypeSymbolKey = "effect/MetricKeyType/Counter";
    CounterKeyTypeTypeId = /* @__PURE__ */ Symbol.for(CounterKeyTypeSymbolKey);
    FrequencyKeyTypeSymbolKey = "effect/MetricKeyType/Frequency";
    FrequencyKeyTypeTypeId = /* @__PURE__ */ Symbol.for(FrequencyKeyTypeSymbolKey);
    GaugeKeyTypeSymbolKey = "effect/MetricKeyType/Gauge";
    GaugeKeyTypeTypeId = /* @__PURE__ */ Symbol.for(GaugeKeyTypeSymbolKey);
    HistogramKeyTypeSymbolKey = "effect/MetricKeyType/Histogram";
    HistogramKeyTypeTypeId = /* @__PURE__ */ Symbol.for(HistogramKeyTypeSymbolKey);
    SummaryKeyTypeSymbolKey = "effect/MetricKeyType/Summary";
    SummaryKeyTypeTypeId = /* @__PURE__ */ Symbol.for(SummaryKeyTypeSymbolKey);
    metricKeyTypeVariance = {
      /* c8 ignore next */
      _In: (_) => _,
      /* c8 ignore next */
      _Out: (_) => _
    };
    CounterKeyType = class {
      incremental;
      bigint;
      [MetricKeyTypeTypeId] = metricKeyTypeVariance;
      [CounterKeyTypeTypeId] = CounterKeyTypeTypeId;
      constructor(incremental, bigint) {
        this.incremental = incremental;
        this.bigint = bigint;
        this._hash = string(CounterKeyTypeSymbolKey);
      }
      _hash;
      [symbol]() {
        return this._hash;
      }
      [symbol2](that) {
        return isCounterKey(that);
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    FrequencyKeyTypeHash = /* @__PURE__ */ string(FrequencyKeyTypeSymbolKey);
    FrequencyKeyType = class {
      preregisteredWords;
      [MetricKeyTypeTypeId] = metricKeyTypeVariance;
      [FrequencyKeyTypeTypeId] = FrequencyKeyTypeTypeId;
      constructor(preregisteredWords) {
        this.preregisteredWords = preregisteredWords;
      }
      [symbol]() {
        return FrequencyKeyTypeHash;
      }
      [symbol2](that) {
        return isFrequencyKey(that);
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    GaugeKeyTypeHash = /* @__PURE__ */ string(GaugeKeyTypeSymbolKey);
    GaugeKeyType = class {
      bigint;
      [MetricKeyTypeTypeId] = metricKeyTypeVariance;
      [GaugeKeyTypeTypeId] = GaugeKeyTypeTypeId;
      constructor(bigint) {
        this.bigint = bigint;
      }
      [symbol]() {
        return GaugeKeyTypeHash;
      }
      [symbol2](that) {
        return isGaugeKey(that);
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    HistogramKeyType = class {
      boundaries;
      [MetricKeyTypeTypeId] = metricKeyTypeVariance;
      [HistogramKeyTypeTypeId] = HistogramKeyTypeTypeId;
      constructor(boundaries) {
        this.boundaries = boundaries;
        this._hash = pipe(string(HistogramKeyTypeSymbolKey), combine(hash(this.boundaries)));
      }
      _hash;
      [symbol]() {
        return this._hash;
      }
      [symbol2](that) {
        return isHistogramKey(that) && equals(this.boundaries, that.boundaries);
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    SummaryKeyType = class {
      maxAge;
      maxSize;
      error;
      quantiles;
      [MetricKeyTypeTypeId] = metricKeyTypeVariance;
      [SummaryKeyTypeTypeId] = SummaryKeyTypeTypeId;
      constructor(maxAge, maxSize, error, quantiles) {
        this.maxAge = maxAge;
        this.maxSize = maxSize;
        this.error = error;
        this.quantiles = quantiles;
        this._hash = pipe(string(SummaryKeyTypeSymbolKey), combine(hash(this.maxAge)), combine(hash(this.maxSize)), combine(hash(this.error)), combine(array2(this.quantiles)));
      }
      _hash;
      [symbol]() {
        return this._hash;
      }
      [symbol2](that) {
        return isSummaryKey(that) && equals(this.maxAge, that.maxAge) && this.maxSize === that.maxSize && this.error === that.error && equals(this.quantiles, that.quantiles);
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    counter = (options) => new CounterKeyType(options?.incremental ?? false, options?.bigint ?? false);
    histogram = (boundaries) => {
      return new HistogramKeyType(boundaries);
    };
    isCounterKey = (u) => hasProperty(u, CounterKeyTypeTypeId);
    isFrequencyKey = (u) => hasProperty(u, FrequencyKeyTypeTypeId);
    isGaugeKey = (u) => hasProperty(u, GaugeKeyTypeTypeId);
    isHistogramKey = (u) => hasProperty(u, HistogramKeyTypeTypeId);
    isSummaryKey = (u) => hasProperty(u, SummaryKeyTypeTypeId);
  }
});

// node_modules/effect/dist/esm/internal/metric/key.js
var MetricKeySymbolKey, MetricKeyTypeId, metricKeyVariance, arrayEquivilence, MetricKeyImpl, isMetricKey, counter2, histogram2, taggedWithLabels;
var init_key = __esm({
  "node_modules/effect/dist/esm/internal/metric/key.js"() {
    init_Array();
    init_Equal();
    init_Function();
    init_Hash();
    init_Option();
    init_Pipeable();
    init_Predicate();
    init_keyType();
    MetricKeySymbolKey = "effect/MetricKey";
    MetricKeyTypeId = /* @__PURE__ */ Symbol.for(MetricKeySymbolKey);
    metricKeyVariance = {
      /* c8 ignore next */
      _Type: (_) => _
    };
    arrayEquivilence = /* @__PURE__ */ getEquivalence(equals);
    MetricKeyImpl = class {
      name;
      keyType;
      description;
      tags;
      [MetricKeyTypeId] = metricKeyVariance;
      constructor(name, keyType, description, tags = []) {
        this.name = name;
        this.keyType = keyType;
        this.description = description;
        this.tags = tags;
        this._hash = pipe(string(this.name + this.description), combine(hash(this.keyType)), combine(array2(this.tags)));
      }
      _hash;
      [symbol]() {
        return this._hash;
      }
      [symbol2](u) {
        return isMetricKey(u) && this.name === u.name && equals(this.keyType, u.keyType) && equals(this.description, u.description) && arrayEquivilence(this.tags, u.tags);
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    isMetricKey = (u) => hasProperty(u, MetricKeyTypeId);
    counter2 = (name, options) => new MetricKeyImpl(name, counter(options), fromNullable(options?.description));
    histogram2 = (name, boundaries, description) => new MetricKeyImpl(name, histogram(boundaries), fromNullable(description));
    taggedWithLabels = /* @__PURE__ */ dual(2, (self, extraTags) => extraTags.length === 0 ? self : new MetricKeyImpl(self.name, self.keyType, self.description, union(self.tags, extraTags)));
  }
});

// node_modules/effect/dist/esm/MutableHashMap.js
var TypeId10, MutableHashMapProto, MutableHashMapIterator, BucketIterator, empty19, get9, getFromBucket, has4, set4, removeFromBucket;
var init_MutableHashMap = __esm({
  "node_modules/effect/dist/esm/MutableHashMap.js"() {
    init_Equal();
    init_Function();
    init_Hash();
    init_Inspectable();
    init_Option();
    init_Pipeable();
    TypeId10 = /* @__PURE__ */ Symbol.for("effect/MutableHashMap");
    MutableHashMapProto = {
      [TypeId10]: TypeId10,
      [Symbol.iterator]() {
        return new MutableHashMapIterator(this);
      },
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "MutableHashMap",
          values: Array.from(this).map(toJSON)
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    MutableHashMapIterator = class _MutableHashMapIterator {
      self;
      referentialIterator;
      bucketIterator;
      constructor(self) {
        this.self = self;
        this.referentialIterator = self.referential[Symbol.iterator]();
      }
      next() {
        if (this.bucketIterator !== void 0) {
          return this.bucketIterator.next();
        }
        const result = this.referentialIterator.next();
        if (result.done) {
          this.bucketIterator = new BucketIterator(this.self.buckets.values());
          return this.next();
        }
        return result;
      }
      [Symbol.iterator]() {
        return new _MutableHashMapIterator(this.self);
      }
    };
    BucketIterator = class {
      backing;
      constructor(backing) {
        this.backing = backing;
      }
      currentBucket;
      next() {
        if (this.currentBucket === void 0) {
          const result2 = this.backing.next();
          if (result2.done) {
            return result2;
          }
          this.currentBucket = result2.value[Symbol.iterator]();
        }
        const result = this.currentBucket.next();
        if (result.done) {
          this.currentBucket = void 0;
          return this.next();
        }
        return result;
      }
    };
    empty19 = () => {
      const self = Object.create(MutableHashMapProto);
      self.referential = /* @__PURE__ */ new Map();
      self.buckets = /* @__PURE__ */ new Map();
      self.bucketsSize = 0;
      return self;
    };
    get9 = /* @__PURE__ */ dual(2, (self, key) => {
      if (isEqual(key) === false) {
        return self.referential.has(key) ? some2(self.referential.get(key)) : none2();
      }
      const hash2 = key[symbol]();
      const bucket = self.buckets.get(hash2);
      if (bucket === void 0) {
        return none2();
      }
      return getFromBucket(self, bucket, key);
    });
    getFromBucket = (self, bucket, key, remove6 = false) => {
      for (let i = 0, len = bucket.length; i < len; i++) {
        if (key[symbol2](bucket[i][0])) {
          const value = bucket[i][1];
          if (remove6) {
            bucket.splice(i, 1);
            self.bucketsSize--;
          }
          return some2(value);
        }
      }
      return none2();
    };
    has4 = /* @__PURE__ */ dual(2, (self, key) => isSome2(get9(self, key)));
    set4 = /* @__PURE__ */ dual(3, (self, key, value) => {
      if (isEqual(key) === false) {
        self.referential.set(key, value);
        return self;
      }
      const hash2 = key[symbol]();
      const bucket = self.buckets.get(hash2);
      if (bucket === void 0) {
        self.buckets.set(hash2, [[key, value]]);
        self.bucketsSize++;
        return self;
      }
      removeFromBucket(self, bucket, key);
      bucket.push([key, value]);
      self.bucketsSize++;
      return self;
    });
    removeFromBucket = (self, bucket, key) => {
      for (let i = 0, len = bucket.length; i < len; i++) {
        if (key[symbol2](bucket[i][0])) {
          bucket.splice(i, 1);
          self.bucketsSize--;
          return;
        }
      }
    };
  }
});

// node_modules/effect/dist/esm/internal/metric/state.js
var MetricStateSymbolKey, MetricStateTypeId, CounterStateSymbolKey, CounterStateTypeId, FrequencyStateSymbolKey, FrequencyStateTypeId, GaugeStateSymbolKey, GaugeStateTypeId, HistogramStateSymbolKey, HistogramStateTypeId, SummaryStateSymbolKey, SummaryStateTypeId, metricStateVariance, CounterState, arrayEquals, FrequencyState, GaugeState, HistogramState, SummaryState, counter3, frequency2, gauge2, histogram3, summary2, isCounterState, isFrequencyState, isGaugeState, isHistogramState, isSummaryState;
var init_state = __esm({
  "node_modules/effect/dist/esm/internal/metric/state.js"() {
    init_Array();
    init_Equal();
    init_Function();
    init_Hash();
    init_Pipeable();
    init_Predicate();
    MetricStateSymbolKey = "effect/MetricState";
    MetricStateTypeId = /* @__PURE__ */ Symbol.for(MetricStateSymbolKey);
    CounterStateSymbolKey = "effect/MetricState/Counter";
    CounterStateTypeId = /* @__PURE__ */ Symbol.for(CounterStateSymbolKey);
    FrequencyStateSymbolKey = "effect/MetricState/Frequency";
    FrequencyStateTypeId = /* @__PURE__ */ Symbol.for(FrequencyStateSymbolKey);
    GaugeStateSymbolKey = "effect/MetricState/Gauge";
    GaugeStateTypeId = /* @__PURE__ */ Symbol.for(GaugeStateSymbolKey);
    HistogramStateSymbolKey = "effect/MetricState/Histogram";
    HistogramStateTypeId = /* @__PURE__ */ Symbol.for(HistogramStateSymbolKey);
    SummaryStateSymbolKey = "effect/MetricState/Summary";
    SummaryStateTypeId = /* @__PURE__ */ Symbol.for(SummaryStateSymbolKey);
    metricStateVariance = {
      /* c8 ignore next */
      _A: (_) => _
    };
    CounterState = class {
      count;
      [MetricStateTypeId] = metricStateVariance;
      [CounterStateTypeId] = CounterStateTypeId;
      constructor(count) {
        this.count = count;
      }
      [symbol]() {
        return pipe(hash(CounterStateSymbolKey), combine(hash(this.count)), cached(this));
      }
      [symbol2](that) {
        return isCounterState(that) && this.count === that.count;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    arrayEquals = /* @__PURE__ */ getEquivalence(equals);
    FrequencyState = class {
      occurrences;
      [MetricStateTypeId] = metricStateVariance;
      [FrequencyStateTypeId] = FrequencyStateTypeId;
      constructor(occurrences) {
        this.occurrences = occurrences;
      }
      _hash;
      [symbol]() {
        return pipe(string(FrequencyStateSymbolKey), combine(array2(fromIterable(this.occurrences.entries()))), cached(this));
      }
      [symbol2](that) {
        return isFrequencyState(that) && arrayEquals(fromIterable(this.occurrences.entries()), fromIterable(that.occurrences.entries()));
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    GaugeState = class {
      value;
      [MetricStateTypeId] = metricStateVariance;
      [GaugeStateTypeId] = GaugeStateTypeId;
      constructor(value) {
        this.value = value;
      }
      [symbol]() {
        return pipe(hash(GaugeStateSymbolKey), combine(hash(this.value)), cached(this));
      }
      [symbol2](u) {
        return isGaugeState(u) && this.value === u.value;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    HistogramState = class {
      buckets;
      count;
      min;
      max;
      sum;
      [MetricStateTypeId] = metricStateVariance;
      [HistogramStateTypeId] = HistogramStateTypeId;
      constructor(buckets, count, min2, max2, sum) {
        this.buckets = buckets;
        this.count = count;
        this.min = min2;
        this.max = max2;
        this.sum = sum;
      }
      [symbol]() {
        return pipe(hash(HistogramStateSymbolKey), combine(hash(this.buckets)), combine(hash(this.count)), combine(hash(this.min)), combine(hash(this.max)), combine(hash(this.sum)), cached(this));
      }
      [symbol2](that) {
        return isHistogramState(that) && equals(this.buckets, that.buckets) && this.count === that.count && this.min === that.min && this.max === that.max && this.sum === that.sum;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    SummaryState = class {
      error;
      quantiles;
      count;
      min;
      max;
      sum;
      [MetricStateTypeId] = metricStateVariance;
      [SummaryStateTypeId] = SummaryStateTypeId;
      constructor(error, quantiles, count, min2, max2, sum) {
        this.error = error;
        this.quantiles = quantiles;
        this.count = count;
        this.min = min2;
        this.max = max2;
        this.sum = sum;
      }
      [symbol]() {
        return pipe(hash(SummaryStateSymbolKey), combine(hash(this.error)), combine(hash(this.quantiles)), combine(hash(this.count)), combine(hash(this.min)), combine(hash(this.max)), combine(hash(this.sum)), cached(this));
      }
      [symbol2](that) {
        return isSummaryState(that) && this.error === that.error && equals(this.quantiles, that.quantiles) && this.count === that.count && this.min === that.min && this.max === that.max && this.sum === that.sum;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    counter3 = (count) => new CounterState(count);
    frequency2 = (occurrences) => {
      return new FrequencyState(occurrences);
    };
    gauge2 = (count) => new GaugeState(count);
    histogram3 = (options) => new HistogramState(options.buckets, options.count, options.min, options.max, options.sum);
    summary2 = (options) => new SummaryState(options.error, options.quantiles, options.count, options.min, options.max, options.sum);
    isCounterState = (u) => hasProperty(u, CounterStateTypeId);
    isFrequencyState = (u) => hasProperty(u, FrequencyStateTypeId);
    isGaugeState = (u) => hasProperty(u, GaugeStateTypeId);
    isHistogramState = (u) => hasProperty(u, HistogramStateTypeId);
    isSummaryState = (u) => hasProperty(u, SummaryStateTypeId);
  }
});

// node_modules/effect/dist/esm/internal/metric/hook.js
var MetricHookSymbolKey, MetricHookTypeId, metricHookVariance, make23, bigint03, counter4, frequency3, gauge3, histogram4, summary3, calculateQuantiles, resolveQuantile;
var init_hook = __esm({
  "node_modules/effect/dist/esm/internal/metric/hook.js"() {
    init_Array();
    init_Duration();
    init_Function();
    init_Number();
    init_Option();
    init_Pipeable();
    init_state();
    MetricHookSymbolKey = "effect/MetricHook";
    MetricHookTypeId = /* @__PURE__ */ Symbol.for(MetricHookSymbolKey);
    metricHookVariance = {
      /* c8 ignore next */
      _In: (_) => _,
      /* c8 ignore next */
      _Out: (_) => _
    };
    make23 = (options) => ({
      [MetricHookTypeId]: metricHookVariance,
      pipe() {
        return pipeArguments(this, arguments);
      },
      ...options
    });
    bigint03 = /* @__PURE__ */ BigInt(0);
    counter4 = (key) => {
      let sum = key.keyType.bigint ? bigint03 : 0;
      const canUpdate = key.keyType.incremental ? key.keyType.bigint ? (value) => value >= bigint03 : (value) => value >= 0 : (_value) => true;
      const update3 = (value) => {
        if (canUpdate(value)) {
          sum = sum + value;
        }
      };
      return make23({
        get: () => counter3(sum),
        update: update3,
        modify: update3
      });
    };
    frequency3 = (key) => {
      const values3 = /* @__PURE__ */ new Map();
      for (const word of key.keyType.preregisteredWords) {
        values3.set(word, 0);
      }
      const update3 = (word) => {
        const slotCount = values3.get(word) ?? 0;
        values3.set(word, slotCount + 1);
      };
      return make23({
        get: () => frequency2(values3),
        update: update3,
        modify: update3
      });
    };
    gauge3 = (_key, startAt) => {
      let value = startAt;
      return make23({
        get: () => gauge2(value),
        update: (v) => {
          value = v;
        },
        modify: (v) => {
          value = value + v;
        }
      });
    };
    histogram4 = (key) => {
      const bounds = key.keyType.boundaries.values;
      const size6 = bounds.length;
      const values3 = new Uint32Array(size6 + 1);
      const boundaries = new Float64Array(size6);
      let count = 0;
      let sum = 0;
      let min2 = Number.MAX_VALUE;
      let max2 = Number.MIN_VALUE;
      pipe(bounds, sort(Order), map2((n, i) => {
        boundaries[i] = n;
      }));
      const update3 = (value) => {
        let from = 0;
        let to = size6;
        while (from !== to) {
          const mid = Math.floor(from + (to - from) / 2);
          const boundary = boundaries[mid];
          if (value <= boundary) {
            to = mid;
          } else {
            from = mid;
          }
          if (to === from + 1) {
            if (value <= boundaries[from]) {
              to = from;
            } else {
              from = to;
            }
          }
        }
        values3[from] = values3[from] + 1;
        count = count + 1;
        sum = sum + value;
        if (value < min2) {
          min2 = value;
        }
        if (value > max2) {
          max2 = value;
        }
      };
      const getBuckets = () => {
        const builder = allocate(size6);
        let cumulated = 0;
        for (let i = 0; i < size6; i++) {
          const boundary = boundaries[i];
          const value = values3[i];
          cumulated = cumulated + value;
          builder[i] = [boundary, cumulated];
        }
        return builder;
      };
      return make23({
        get: () => histogram3({
          buckets: getBuckets(),
          count,
          min: min2,
          max: max2,
          sum
        }),
        update: update3,
        modify: update3
      });
    };
    summary3 = (key) => {
      const {
        error,
        maxAge,
        maxSize,
        quantiles
      } = key.keyType;
      const sortedQuantiles = pipe(quantiles, sort(Order));
      const values3 = allocate(maxSize);
      let head4 = 0;
      let count = 0;
      let sum = 0;
      let min2 = 0;
      let max2 = 0;
      const snapshot = (now) => {
        const builder = [];
        let i = 0;
        while (i !== maxSize - 1) {
          const item = values3[i];
          if (item != null) {
            const [t, v] = item;
            const age = millis(now - t);
            if (greaterThanOrEqualTo(age, zero) && lessThanOrEqualTo(age, maxAge)) {
              builder.push(v);
            }
          }
          i = i + 1;
        }
        return calculateQuantiles(error, sortedQuantiles, sort(builder, Order));
      };
      const observe = (value, timestamp) => {
        if (maxSize > 0) {
          head4 = head4 + 1;
          const target = head4 % maxSize;
          values3[target] = [timestamp, value];
        }
        min2 = count === 0 ? value : Math.min(min2, value);
        max2 = count === 0 ? value : Math.max(max2, value);
        count = count + 1;
        sum = sum + value;
      };
      return make23({
        get: () => summary2({
          error,
          quantiles: snapshot(Date.now()),
          count,
          min: min2,
          max: max2,
          sum
        }),
        update: ([value, timestamp]) => observe(value, timestamp),
        modify: ([value, timestamp]) => observe(value, timestamp)
      });
    };
    calculateQuantiles = (error, sortedQuantiles, sortedSamples) => {
      const sampleCount = sortedSamples.length;
      if (!isNonEmptyReadonlyArray(sortedQuantiles)) {
        return empty();
      }
      const head4 = sortedQuantiles[0];
      const tail = sortedQuantiles.slice(1);
      const resolvedHead = resolveQuantile(error, sampleCount, none2(), 0, head4, sortedSamples);
      const resolved = of(resolvedHead);
      tail.forEach((quantile) => {
        resolved.push(resolveQuantile(error, sampleCount, resolvedHead.value, resolvedHead.consumed, quantile, resolvedHead.rest));
      });
      return map2(resolved, (rq) => [rq.quantile, rq.value]);
    };
    resolveQuantile = (error, sampleCount, current, consumed, quantile, rest) => {
      let error_1 = error;
      let sampleCount_1 = sampleCount;
      let current_1 = current;
      let consumed_1 = consumed;
      let quantile_1 = quantile;
      let rest_1 = rest;
      let error_2 = error;
      let sampleCount_2 = sampleCount;
      let current_2 = current;
      let consumed_2 = consumed;
      let quantile_2 = quantile;
      let rest_2 = rest;
      while (1) {
        if (!isNonEmptyReadonlyArray(rest_1)) {
          return {
            quantile: quantile_1,
            value: none2(),
            consumed: consumed_1,
            rest: []
          };
        }
        if (quantile_1 === 1) {
          return {
            quantile: quantile_1,
            value: some2(lastNonEmpty(rest_1)),
            consumed: consumed_1 + rest_1.length,
            rest: []
          };
        }
        const headValue = headNonEmpty(rest_1);
        const sameHead = span(rest_1, (n) => n === headValue);
        const desired = quantile_1 * sampleCount_1;
        const allowedError = error_1 / 2 * desired;
        const candConsumed = consumed_1 + sameHead[0].length;
        const candError = Math.abs(candConsumed - desired);
        if (candConsumed < desired - allowedError) {
          error_2 = error_1;
          sampleCount_2 = sampleCount_1;
          current_2 = head(rest_1);
          consumed_2 = candConsumed;
          quantile_2 = quantile_1;
          rest_2 = sameHead[1];
          error_1 = error_2;
          sampleCount_1 = sampleCount_2;
          current_1 = current_2;
          consumed_1 = consumed_2;
          quantile_1 = quantile_2;
          rest_1 = rest_2;
          continue;
        }
        if (candConsumed > desired + allowedError) {
          const valueToReturn = isNone2(current_1) ? some2(headValue) : current_1;
          return {
            quantile: quantile_1,
            value: valueToReturn,
            consumed: consumed_1,
            rest: rest_1
          };
        }
        switch (current_1._tag) {
          case "None": {
            error_2 = error_1;
            sampleCount_2 = sampleCount_1;
            current_2 = head(rest_1);
            consumed_2 = candConsumed;
            quantile_2 = quantile_1;
            rest_2 = sameHead[1];
            error_1 = error_2;
            sampleCount_1 = sampleCount_2;
            current_1 = current_2;
            consumed_1 = consumed_2;
            quantile_1 = quantile_2;
            rest_1 = rest_2;
            continue;
          }
          case "Some": {
            const prevError = Math.abs(desired - current_1.value);
            if (candError < prevError) {
              error_2 = error_1;
              sampleCount_2 = sampleCount_1;
              current_2 = head(rest_1);
              consumed_2 = candConsumed;
              quantile_2 = quantile_1;
              rest_2 = sameHead[1];
              error_1 = error_2;
              sampleCount_1 = sampleCount_2;
              current_1 = current_2;
              consumed_1 = consumed_2;
              quantile_1 = quantile_2;
              rest_1 = rest_2;
              continue;
            }
            return {
              quantile: quantile_1,
              value: some2(current_1.value),
              consumed: consumed_1,
              rest: rest_1
            };
          }
        }
      }
      throw new Error("BUG: MetricHook.resolveQuantiles - please report an issue at https://github.com/Effect-TS/effect/issues");
    };
  }
});

// node_modules/effect/dist/esm/internal/metric/pair.js
var MetricPairSymbolKey, MetricPairTypeId, metricPairVariance, unsafeMake5;
var init_pair = __esm({
  "node_modules/effect/dist/esm/internal/metric/pair.js"() {
    init_Pipeable();
    MetricPairSymbolKey = "effect/MetricPair";
    MetricPairTypeId = /* @__PURE__ */ Symbol.for(MetricPairSymbolKey);
    metricPairVariance = {
      /* c8 ignore next */
      _Type: (_) => _
    };
    unsafeMake5 = (metricKey, metricState) => {
      return {
        [MetricPairTypeId]: metricPairVariance,
        metricKey,
        metricState,
        pipe() {
          return pipeArguments(this, arguments);
        }
      };
    };
  }
});

// node_modules/effect/dist/esm/internal/metric/registry.js
var MetricRegistrySymbolKey, MetricRegistryTypeId, MetricRegistryImpl, make24;
var init_registry = __esm({
  "node_modules/effect/dist/esm/internal/metric/registry.js"() {
    init_Function();
    init_MutableHashMap();
    init_Option();
    init_hook();
    init_keyType();
    init_pair();
    MetricRegistrySymbolKey = "effect/MetricRegistry";
    MetricRegistryTypeId = /* @__PURE__ */ Symbol.for(MetricRegistrySymbolKey);
    MetricRegistryImpl = class {
      [MetricRegistryTypeId] = MetricRegistryTypeId;
      map = /* @__PURE__ */ empty19();
      snapshot() {
        const result = [];
        for (const [key, hook] of this.map) {
          result.push(unsafeMake5(key, hook.get()));
        }
        return result;
      }
      get(key) {
        const hook = pipe(this.map, get9(key), getOrUndefined);
        if (hook == null) {
          if (isCounterKey(key.keyType)) {
            return this.getCounter(key);
          }
          if (isGaugeKey(key.keyType)) {
            return this.getGauge(key);
          }
          if (isFrequencyKey(key.keyType)) {
            return this.getFrequency(key);
          }
          if (isHistogramKey(key.keyType)) {
            return this.getHistogram(key);
          }
          if (isSummaryKey(key.keyType)) {
            return this.getSummary(key);
          }
          throw new Error("BUG: MetricRegistry.get - unknown MetricKeyType - please report an issue at https://github.com/Effect-TS/effect/issues");
        } else {
          return hook;
        }
      }
      getCounter(key) {
        let value = pipe(this.map, get9(key), getOrUndefined);
        if (value == null) {
          const counter6 = counter4(key);
          if (!pipe(this.map, has4(key))) {
            pipe(this.map, set4(key, counter6));
          }
          value = counter6;
        }
        return value;
      }
      getFrequency(key) {
        let value = pipe(this.map, get9(key), getOrUndefined);
        if (value == null) {
          const frequency5 = frequency3(key);
          if (!pipe(this.map, has4(key))) {
            pipe(this.map, set4(key, frequency5));
          }
          value = frequency5;
        }
        return value;
      }
      getGauge(key) {
        let value = pipe(this.map, get9(key), getOrUndefined);
        if (value == null) {
          const gauge5 = gauge3(key, key.keyType.bigint ? BigInt(0) : 0);
          if (!pipe(this.map, has4(key))) {
            pipe(this.map, set4(key, gauge5));
          }
          value = gauge5;
        }
        return value;
      }
      getHistogram(key) {
        let value = pipe(this.map, get9(key), getOrUndefined);
        if (value == null) {
          const histogram6 = histogram4(key);
          if (!pipe(this.map, has4(key))) {
            pipe(this.map, set4(key, histogram6));
          }
          value = histogram6;
        }
        return value;
      }
      getSummary(key) {
        let value = pipe(this.map, get9(key), getOrUndefined);
        if (value == null) {
          const summary5 = summary3(key);
          if (!pipe(this.map, has4(key))) {
            pipe(this.map, set4(key, summary5));
          }
          value = summary5;
        }
        return value;
      }
    };
    make24 = () => {
      return new MetricRegistryImpl();
    };
  }
});

// node_modules/effect/dist/esm/internal/metric.js
var MetricSymbolKey, MetricTypeId, metricVariance, globalMetricRegistry, make25, counter5, fromMetricKey, histogram5, tagged, taggedWithLabels2, update2;
var init_metric = __esm({
  "node_modules/effect/dist/esm/internal/metric.js"() {
    init_Array();
    init_Function();
    init_GlobalValue();
    init_Pipeable();
    init_core();
    init_key();
    init_label();
    init_registry();
    MetricSymbolKey = "effect/Metric";
    MetricTypeId = /* @__PURE__ */ Symbol.for(MetricSymbolKey);
    metricVariance = {
      /* c8 ignore next */
      _Type: (_) => _,
      /* c8 ignore next */
      _In: (_) => _,
      /* c8 ignore next */
      _Out: (_) => _
    };
    globalMetricRegistry = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/Metric/globalMetricRegistry"), () => make24());
    make25 = function(keyType, unsafeUpdate, unsafeValue, unsafeModify) {
      const metric = Object.assign((effect) => tap(effect, (a) => update2(metric, a)), {
        [MetricTypeId]: metricVariance,
        keyType,
        unsafeUpdate,
        unsafeValue,
        unsafeModify,
        register() {
          this.unsafeValue([]);
          return this;
        },
        pipe() {
          return pipeArguments(this, arguments);
        }
      });
      return metric;
    };
    counter5 = (name, options) => fromMetricKey(counter2(name, options));
    fromMetricKey = (key) => {
      let untaggedHook;
      const hookCache = /* @__PURE__ */ new WeakMap();
      const hook = (extraTags) => {
        if (extraTags.length === 0) {
          if (untaggedHook !== void 0) {
            return untaggedHook;
          }
          untaggedHook = globalMetricRegistry.get(key);
          return untaggedHook;
        }
        let hook2 = hookCache.get(extraTags);
        if (hook2 !== void 0) {
          return hook2;
        }
        hook2 = globalMetricRegistry.get(taggedWithLabels(key, extraTags));
        hookCache.set(extraTags, hook2);
        return hook2;
      };
      return make25(key.keyType, (input, extraTags) => hook(extraTags).update(input), (extraTags) => hook(extraTags).get(), (input, extraTags) => hook(extraTags).modify(input));
    };
    histogram5 = (name, boundaries, description) => fromMetricKey(histogram2(name, boundaries, description));
    tagged = /* @__PURE__ */ dual(3, (self, key, value) => taggedWithLabels2(self, [make22(key, value)]));
    taggedWithLabels2 = /* @__PURE__ */ dual(2, (self, extraTags) => {
      return make25(self.keyType, (input, extraTags1) => self.unsafeUpdate(input, union(extraTags, extraTags1)), (extraTags1) => self.unsafeValue(union(extraTags, extraTags1)), (input, extraTags1) => self.unsafeModify(input, union(extraTags, extraTags1)));
    });
    update2 = /* @__PURE__ */ dual(2, (self, input) => fiberRefGetWith(currentMetricLabels, (tags) => sync(() => self.unsafeUpdate(input, tags))));
  }
});

// node_modules/effect/dist/esm/internal/request.js
var RequestSymbolKey, RequestTypeId, requestVariance, RequestPrototype, complete;
var init_request = __esm({
  "node_modules/effect/dist/esm/internal/request.js"() {
    init_Function();
    init_completedRequestMap();
    init_core();
    init_effectable();
    RequestSymbolKey = "effect/Request";
    RequestTypeId = /* @__PURE__ */ Symbol.for(RequestSymbolKey);
    requestVariance = {
      /* c8 ignore next */
      _E: (_) => _,
      /* c8 ignore next */
      _A: (_) => _
    };
    RequestPrototype = {
      ...StructuralPrototype,
      [RequestTypeId]: requestVariance
    };
    complete = /* @__PURE__ */ dual(2, (self, result) => fiberRefGetWith(currentRequestMap, (map10) => sync(() => {
      if (map10.has(self)) {
        const entry = map10.get(self);
        if (!entry.state.completed) {
          entry.state.completed = true;
          deferredUnsafeDone(entry.result, result);
        }
      }
    })));
  }
});

// node_modules/effect/dist/esm/internal/redBlackTree/iterator.js
var Direction, RedBlackTreeIterator;
var init_iterator = __esm({
  "node_modules/effect/dist/esm/internal/redBlackTree/iterator.js"() {
    init_Array();
    init_Option();
    Direction = {
      Forward: 0,
      Backward: 1 << 0
    };
    RedBlackTreeIterator = class _RedBlackTreeIterator {
      self;
      stack;
      direction;
      count = 0;
      constructor(self, stack, direction) {
        this.self = self;
        this.stack = stack;
        this.direction = direction;
      }
      /**
       * Clones the iterator
       */
      clone() {
        return new _RedBlackTreeIterator(this.self, this.stack.slice(), this.direction);
      }
      /**
       * Reverse the traversal direction
       */
      reversed() {
        return new _RedBlackTreeIterator(this.self, this.stack.slice(), this.direction === Direction.Forward ? Direction.Backward : Direction.Forward);
      }
      /**
       * Iterator next
       */
      next() {
        const entry = this.entry;
        this.count++;
        if (this.direction === Direction.Forward) {
          this.moveNext();
        } else {
          this.movePrev();
        }
        switch (entry._tag) {
          case "None": {
            return {
              done: true,
              value: this.count
            };
          }
          case "Some": {
            return {
              done: false,
              value: entry.value
            };
          }
        }
      }
      /**
       * Returns the key
       */
      get key() {
        if (this.stack.length > 0) {
          return some2(this.stack[this.stack.length - 1].key);
        }
        return none2();
      }
      /**
       * Returns the value
       */
      get value() {
        if (this.stack.length > 0) {
          return some2(this.stack[this.stack.length - 1].value);
        }
        return none2();
      }
      /**
       * Returns the key
       */
      get entry() {
        return map(last(this.stack), (node2) => [node2.key, node2.value]);
      }
      /**
       * Returns the position of this iterator in the sorted list
       */
      get index() {
        let idx = 0;
        const stack = this.stack;
        if (stack.length === 0) {
          const r = this.self._root;
          if (r != null) {
            return r.count;
          }
          return 0;
        } else if (stack[stack.length - 1].left != null) {
          idx = stack[stack.length - 1].left.count;
        }
        for (let s = stack.length - 2; s >= 0; --s) {
          if (stack[s + 1] === stack[s].right) {
            ++idx;
            if (stack[s].left != null) {
              idx += stack[s].left.count;
            }
          }
        }
        return idx;
      }
      /**
       * Advances iterator to next element in list
       */
      moveNext() {
        const stack = this.stack;
        if (stack.length === 0) {
          return;
        }
        let n = stack[stack.length - 1];
        if (n.right != null) {
          n = n.right;
          while (n != null) {
            stack.push(n);
            n = n.left;
          }
        } else {
          stack.pop();
          while (stack.length > 0 && stack[stack.length - 1].right === n) {
            n = stack[stack.length - 1];
            stack.pop();
          }
        }
      }
      /**
       * Checks if there is a next element
       */
      get hasNext() {
        const stack = this.stack;
        if (stack.length === 0) {
          return false;
        }
        if (stack[stack.length - 1].right != null) {
          return true;
        }
        for (let s = stack.length - 1; s > 0; --s) {
          if (stack[s - 1].left === stack[s]) {
            return true;
          }
        }
        return false;
      }
      /**
       * Advances iterator to previous element in list
       */
      movePrev() {
        const stack = this.stack;
        if (stack.length === 0) {
          return;
        }
        let n = stack[stack.length - 1];
        if (n != null && n.left != null) {
          n = n.left;
          while (n != null) {
            stack.push(n);
            n = n.right;
          }
        } else {
          stack.pop();
          while (stack.length > 0 && stack[stack.length - 1].left === n) {
            n = stack[stack.length - 1];
            stack.pop();
          }
        }
      }
      /**
       * Checks if there is a previous element
       */
      get hasPrev() {
        const stack = this.stack;
        if (stack.length === 0) {
          return false;
        }
        if (stack[stack.length - 1].left != null) {
          return true;
        }
        for (let s = stack.length - 1; s > 0; --s) {
          if (stack[s - 1].right === stack[s]) {
            return true;
          }
        }
        return false;
      }
    };
  }
});

// node_modules/effect/dist/esm/internal/redBlackTree/node.js
function swap2(n, v) {
  n.key = v.key;
  n.value = v.value;
  n.left = v.left;
  n.right = v.right;
  n.color = v.color;
  n.count = v.count;
}
var Color, clone, repaint, recount;
var init_node2 = __esm({
  "node_modules/effect/dist/esm/internal/redBlackTree/node.js"() {
    Color = {
      Red: 0,
      Black: 1 << 0
    };
    clone = ({
      color,
      count,
      key,
      left: left3,
      right: right3,
      value
    }) => ({
      color,
      key,
      value,
      left: left3,
      right: right3,
      count
    });
    repaint = ({
      count,
      key,
      left: left3,
      right: right3,
      value
    }, color) => ({
      color,
      key,
      value,
      left: left3,
      right: right3,
      count
    });
    recount = (node2) => {
      node2.count = 1 + (node2.left?.count ?? 0) + (node2.right?.count ?? 0);
    };
  }
});

// node_modules/effect/dist/esm/internal/redBlackTree.js
var RedBlackTreeSymbolKey, RedBlackTreeTypeId, redBlackTreeVariance, RedBlackTreeProto, makeImpl3, isRedBlackTree, findFirst3, has5, insert, keysForward, keys3, removeFirst, fixDoubleBlack;
var init_redBlackTree = __esm({
  "node_modules/effect/dist/esm/internal/redBlackTree.js"() {
    init_Equal();
    init_Function();
    init_Hash();
    init_Inspectable();
    init_Option();
    init_Pipeable();
    init_Predicate();
    init_iterator();
    init_node2();
    RedBlackTreeSymbolKey = "effect/RedBlackTree";
    RedBlackTreeTypeId = /* @__PURE__ */ Symbol.for(RedBlackTreeSymbolKey);
    redBlackTreeVariance = {
      /* c8 ignore next */
      _Key: (_) => _,
      /* c8 ignore next */
      _Value: (_) => _
    };
    RedBlackTreeProto = {
      [RedBlackTreeTypeId]: redBlackTreeVariance,
      [symbol]() {
        let hash2 = hash(RedBlackTreeSymbolKey);
        for (const item of this) {
          hash2 ^= pipe(hash(item[0]), combine(hash(item[1])));
        }
        return cached(this, hash2);
      },
      [symbol2](that) {
        if (isRedBlackTree(that)) {
          if ((this._root?.count ?? 0) !== (that._root?.count ?? 0)) {
            return false;
          }
          const entries2 = Array.from(that);
          return Array.from(this).every((itemSelf, i) => {
            const itemThat = entries2[i];
            return equals(itemSelf[0], itemThat[0]) && equals(itemSelf[1], itemThat[1]);
          });
        }
        return false;
      },
      [Symbol.iterator]() {
        const stack = [];
        let n = this._root;
        while (n != null) {
          stack.push(n);
          n = n.left;
        }
        return new RedBlackTreeIterator(this, stack, Direction.Forward);
      },
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "RedBlackTree",
          values: Array.from(this).map(toJSON)
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    makeImpl3 = (ord, root) => {
      const tree = Object.create(RedBlackTreeProto);
      tree._ord = ord;
      tree._root = root;
      return tree;
    };
    isRedBlackTree = (u) => hasProperty(u, RedBlackTreeTypeId);
    findFirst3 = /* @__PURE__ */ dual(2, (self, key) => {
      const cmp = self._ord;
      let node2 = self._root;
      while (node2 !== void 0) {
        const d = cmp(key, node2.key);
        if (equals(key, node2.key)) {
          return some2(node2.value);
        }
        if (d <= 0) {
          node2 = node2.left;
        } else {
          node2 = node2.right;
        }
      }
      return none2();
    });
    has5 = /* @__PURE__ */ dual(2, (self, key) => isSome2(findFirst3(self, key)));
    insert = /* @__PURE__ */ dual(3, (self, key, value) => {
      const cmp = self._ord;
      let n = self._root;
      const n_stack = [];
      const d_stack = [];
      while (n != null) {
        const d = cmp(key, n.key);
        n_stack.push(n);
        d_stack.push(d);
        if (d <= 0) {
          n = n.left;
        } else {
          n = n.right;
        }
      }
      n_stack.push({
        color: Color.Red,
        key,
        value,
        left: void 0,
        right: void 0,
        count: 1
      });
      for (let s = n_stack.length - 2; s >= 0; --s) {
        const n2 = n_stack[s];
        if (d_stack[s] <= 0) {
          n_stack[s] = {
            color: n2.color,
            key: n2.key,
            value: n2.value,
            left: n_stack[s + 1],
            right: n2.right,
            count: n2.count + 1
          };
        } else {
          n_stack[s] = {
            color: n2.color,
            key: n2.key,
            value: n2.value,
            left: n2.left,
            right: n_stack[s + 1],
            count: n2.count + 1
          };
        }
      }
      for (let s = n_stack.length - 1; s > 1; --s) {
        const p = n_stack[s - 1];
        const n3 = n_stack[s];
        if (p.color === Color.Black || n3.color === Color.Black) {
          break;
        }
        const pp = n_stack[s - 2];
        if (pp.left === p) {
          if (p.left === n3) {
            const y = pp.right;
            if (y && y.color === Color.Red) {
              p.color = Color.Black;
              pp.right = repaint(y, Color.Black);
              pp.color = Color.Red;
              s -= 1;
            } else {
              pp.color = Color.Red;
              pp.left = p.right;
              p.color = Color.Black;
              p.right = pp;
              n_stack[s - 2] = p;
              n_stack[s - 1] = n3;
              recount(pp);
              recount(p);
              if (s >= 3) {
                const ppp = n_stack[s - 3];
                if (ppp.left === pp) {
                  ppp.left = p;
                } else {
                  ppp.right = p;
                }
              }
              break;
            }
          } else {
            const y = pp.right;
            if (y && y.color === Color.Red) {
              p.color = Color.Black;
              pp.right = repaint(y, Color.Black);
              pp.color = Color.Red;
              s -= 1;
            } else {
              p.right = n3.left;
              pp.color = Color.Red;
              pp.left = n3.right;
              n3.color = Color.Black;
              n3.left = p;
              n3.right = pp;
              n_stack[s - 2] = n3;
              n_stack[s - 1] = p;
              recount(pp);
              recount(p);
              recount(n3);
              if (s >= 3) {
                const ppp = n_stack[s - 3];
                if (ppp.left === pp) {
                  ppp.left = n3;
                } else {
                  ppp.right = n3;
                }
              }
              break;
            }
          }
        } else {
          if (p.right === n3) {
            const y = pp.left;
            if (y && y.color === Color.Red) {
              p.color = Color.Black;
              pp.left = repaint(y, Color.Black);
              pp.color = Color.Red;
              s -= 1;
            } else {
              pp.color = Color.Red;
              pp.right = p.left;
              p.color = Color.Black;
              p.left = pp;
              n_stack[s - 2] = p;
              n_stack[s - 1] = n3;
              recount(pp);
              recount(p);
              if (s >= 3) {
                const ppp = n_stack[s - 3];
                if (ppp.right === pp) {
                  ppp.right = p;
                } else {
                  ppp.left = p;
                }
              }
              break;
            }
          } else {
            const y = pp.left;
            if (y && y.color === Color.Red) {
              p.color = Color.Black;
              pp.left = repaint(y, Color.Black);
              pp.color = Color.Red;
              s -= 1;
            } else {
              p.left = n3.right;
              pp.color = Color.Red;
              pp.right = n3.left;
              n3.color = Color.Black;
              n3.right = p;
              n3.left = pp;
              n_stack[s - 2] = n3;
              n_stack[s - 1] = p;
              recount(pp);
              recount(p);
              recount(n3);
              if (s >= 3) {
                const ppp = n_stack[s - 3];
                if (ppp.right === pp) {
                  ppp.right = n3;
                } else {
                  ppp.left = n3;
                }
              }
              break;
            }
          }
        }
      }
      n_stack[0].color = Color.Black;
      return makeImpl3(self._ord, n_stack[0]);
    });
    keysForward = (self) => keys3(self, Direction.Forward);
    keys3 = (self, direction) => {
      const begin = self[Symbol.iterator]();
      let count = 0;
      return {
        [Symbol.iterator]: () => keys3(self, direction),
        next: () => {
          count++;
          const entry = begin.key;
          if (direction === Direction.Forward) {
            begin.moveNext();
          } else {
            begin.movePrev();
          }
          switch (entry._tag) {
            case "None": {
              return {
                done: true,
                value: count
              };
            }
            case "Some": {
              return {
                done: false,
                value: entry.value
              };
            }
          }
        }
      };
    };
    removeFirst = /* @__PURE__ */ dual(2, (self, key) => {
      if (!has5(self, key)) {
        return self;
      }
      const ord = self._ord;
      const cmp = ord;
      let node2 = self._root;
      const stack = [];
      while (node2 !== void 0) {
        const d = cmp(key, node2.key);
        stack.push(node2);
        if (equals(key, node2.key)) {
          node2 = void 0;
        } else if (d <= 0) {
          node2 = node2.left;
        } else {
          node2 = node2.right;
        }
      }
      if (stack.length === 0) {
        return self;
      }
      const cstack = new Array(stack.length);
      let n = stack[stack.length - 1];
      cstack[cstack.length - 1] = {
        color: n.color,
        key: n.key,
        value: n.value,
        left: n.left,
        right: n.right,
        count: n.count
      };
      for (let i = stack.length - 2; i >= 0; --i) {
        n = stack[i];
        if (n.left === stack[i + 1]) {
          cstack[i] = {
            color: n.color,
            key: n.key,
            value: n.value,
            left: cstack[i + 1],
            right: n.right,
            count: n.count
          };
        } else {
          cstack[i] = {
            color: n.color,
            key: n.key,
            value: n.value,
            left: n.left,
            right: cstack[i + 1],
            count: n.count
          };
        }
      }
      n = cstack[cstack.length - 1];
      if (n.left !== void 0 && n.right !== void 0) {
        const split = cstack.length;
        n = n.left;
        while (n.right != null) {
          cstack.push(n);
          n = n.right;
        }
        const v = cstack[split - 1];
        cstack.push({
          color: n.color,
          key: v.key,
          value: v.value,
          left: n.left,
          right: n.right,
          count: n.count
        });
        cstack[split - 1].key = n.key;
        cstack[split - 1].value = n.value;
        for (let i = cstack.length - 2; i >= split; --i) {
          n = cstack[i];
          cstack[i] = {
            color: n.color,
            key: n.key,
            value: n.value,
            left: n.left,
            right: cstack[i + 1],
            count: n.count
          };
        }
        cstack[split - 1].left = cstack[split];
      }
      n = cstack[cstack.length - 1];
      if (n.color === Color.Red) {
        const p = cstack[cstack.length - 2];
        if (p.left === n) {
          p.left = void 0;
        } else if (p.right === n) {
          p.right = void 0;
        }
        cstack.pop();
        for (let i = 0; i < cstack.length; ++i) {
          cstack[i].count--;
        }
        return makeImpl3(ord, cstack[0]);
      } else {
        if (n.left !== void 0 || n.right !== void 0) {
          if (n.left !== void 0) {
            swap2(n, n.left);
          } else if (n.right !== void 0) {
            swap2(n, n.right);
          }
          n.color = Color.Black;
          for (let i = 0; i < cstack.length - 1; ++i) {
            cstack[i].count--;
          }
          return makeImpl3(ord, cstack[0]);
        } else if (cstack.length === 1) {
          return makeImpl3(ord, void 0);
        } else {
          for (let i = 0; i < cstack.length; ++i) {
            cstack[i].count--;
          }
          const parent = cstack[cstack.length - 2];
          fixDoubleBlack(cstack);
          if (parent.left === n) {
            parent.left = void 0;
          } else {
            parent.right = void 0;
          }
        }
      }
      return makeImpl3(ord, cstack[0]);
    });
    fixDoubleBlack = (stack) => {
      let n, p, s, z;
      for (let i = stack.length - 1; i >= 0; --i) {
        n = stack[i];
        if (i === 0) {
          n.color = Color.Black;
          return;
        }
        p = stack[i - 1];
        if (p.left === n) {
          s = p.right;
          if (s !== void 0 && s.right !== void 0 && s.right.color === Color.Red) {
            s = p.right = clone(s);
            z = s.right = clone(s.right);
            p.right = s.left;
            s.left = p;
            s.right = z;
            s.color = p.color;
            n.color = Color.Black;
            p.color = Color.Black;
            z.color = Color.Black;
            recount(p);
            recount(s);
            if (i > 1) {
              const pp = stack[i - 2];
              if (pp.left === p) {
                pp.left = s;
              } else {
                pp.right = s;
              }
            }
            stack[i - 1] = s;
            return;
          } else if (s !== void 0 && s.left !== void 0 && s.left.color === Color.Red) {
            s = p.right = clone(s);
            z = s.left = clone(s.left);
            p.right = z.left;
            s.left = z.right;
            z.left = p;
            z.right = s;
            z.color = p.color;
            p.color = Color.Black;
            s.color = Color.Black;
            n.color = Color.Black;
            recount(p);
            recount(s);
            recount(z);
            if (i > 1) {
              const pp = stack[i - 2];
              if (pp.left === p) {
                pp.left = z;
              } else {
                pp.right = z;
              }
            }
            stack[i - 1] = z;
            return;
          }
          if (s !== void 0 && s.color === Color.Black) {
            if (p.color === Color.Red) {
              p.color = Color.Black;
              p.right = repaint(s, Color.Red);
              return;
            } else {
              p.right = repaint(s, Color.Red);
              continue;
            }
          } else if (s !== void 0) {
            s = clone(s);
            p.right = s.left;
            s.left = p;
            s.color = p.color;
            p.color = Color.Red;
            recount(p);
            recount(s);
            if (i > 1) {
              const pp = stack[i - 2];
              if (pp.left === p) {
                pp.left = s;
              } else {
                pp.right = s;
              }
            }
            stack[i - 1] = s;
            stack[i] = p;
            if (i + 1 < stack.length) {
              stack[i + 1] = n;
            } else {
              stack.push(n);
            }
            i = i + 2;
          }
        } else {
          s = p.left;
          if (s !== void 0 && s.left !== void 0 && s.left.color === Color.Red) {
            s = p.left = clone(s);
            z = s.left = clone(s.left);
            p.left = s.right;
            s.right = p;
            s.left = z;
            s.color = p.color;
            n.color = Color.Black;
            p.color = Color.Black;
            z.color = Color.Black;
            recount(p);
            recount(s);
            if (i > 1) {
              const pp = stack[i - 2];
              if (pp.right === p) {
                pp.right = s;
              } else {
                pp.left = s;
              }
            }
            stack[i - 1] = s;
            return;
          } else if (s !== void 0 && s.right !== void 0 && s.right.color === Color.Red) {
            s = p.left = clone(s);
            z = s.right = clone(s.right);
            p.left = z.right;
            s.right = z.left;
            z.right = p;
            z.left = s;
            z.color = p.color;
            p.color = Color.Black;
            s.color = Color.Black;
            n.color = Color.Black;
            recount(p);
            recount(s);
            recount(z);
            if (i > 1) {
              const pp = stack[i - 2];
              if (pp.right === p) {
                pp.right = z;
              } else {
                pp.left = z;
              }
            }
            stack[i - 1] = z;
            return;
          }
          if (s !== void 0 && s.color === Color.Black) {
            if (p.color === Color.Red) {
              p.color = Color.Black;
              p.left = repaint(s, Color.Red);
              return;
            } else {
              p.left = repaint(s, Color.Red);
              continue;
            }
          } else if (s !== void 0) {
            s = clone(s);
            p.left = s.right;
            s.right = p;
            s.color = p.color;
            p.color = Color.Red;
            recount(p);
            recount(s);
            if (i > 1) {
              const pp = stack[i - 2];
              if (pp.right === p) {
                pp.right = s;
              } else {
                pp.left = s;
              }
            }
            stack[i - 1] = s;
            stack[i] = p;
            if (i + 1 < stack.length) {
              stack[i + 1] = n;
            } else {
              stack.push(n);
            }
            i = i + 2;
          }
        }
      }
    };
  }
});

// node_modules/effect/dist/esm/RedBlackTree.js
var has6, insert2, keys4, removeFirst2;
var init_RedBlackTree = __esm({
  "node_modules/effect/dist/esm/RedBlackTree.js"() {
    init_redBlackTree();
    has6 = has5;
    insert2 = insert;
    keys4 = keysForward;
    removeFirst2 = removeFirst;
  }
});

// node_modules/effect/dist/esm/SortedSet.js
var TypeId11, SortedSetProto, fromTree, isSortedSet, add5, remove5;
var init_SortedSet = __esm({
  "node_modules/effect/dist/esm/SortedSet.js"() {
    init_Equal();
    init_Function();
    init_Function();
    init_Hash();
    init_Inspectable();
    init_Pipeable();
    init_Predicate();
    init_RedBlackTree();
    TypeId11 = /* @__PURE__ */ Symbol.for("effect/SortedSet");
    SortedSetProto = {
      [TypeId11]: {
        _A: (_) => _
      },
      [symbol]() {
        return pipe(hash(this.keyTree), combine(hash(TypeId11)), cached(this));
      },
      [symbol2](that) {
        return isSortedSet(that) && equals(this.keyTree, that.keyTree);
      },
      [Symbol.iterator]() {
        return keys4(this.keyTree);
      },
      toString() {
        return format(this.toJSON());
      },
      toJSON() {
        return {
          _id: "SortedSet",
          values: Array.from(this).map(toJSON)
        };
      },
      [NodeInspectSymbol]() {
        return this.toJSON();
      },
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    fromTree = (keyTree) => {
      const a = Object.create(SortedSetProto);
      a.keyTree = keyTree;
      return a;
    };
    isSortedSet = (u) => hasProperty(u, TypeId11);
    add5 = /* @__PURE__ */ dual(2, (self, value) => has6(self.keyTree, value) ? self : fromTree(insert2(self.keyTree, value, true)));
    remove5 = /* @__PURE__ */ dual(2, (self, value) => fromTree(removeFirst2(self.keyTree, value)));
  }
});

// node_modules/effect/dist/esm/internal/supervisor.js
var SupervisorSymbolKey, SupervisorTypeId, supervisorVariance, ProxySupervisor, Zip, isZip, Track, Const, FibersIn, fromEffect, none7;
var init_supervisor = __esm({
  "node_modules/effect/dist/esm/internal/supervisor.js"() {
    init_Function();
    init_GlobalValue();
    init_MutableRef();
    init_Predicate();
    init_SortedSet();
    init_core();
    SupervisorSymbolKey = "effect/Supervisor";
    SupervisorTypeId = /* @__PURE__ */ Symbol.for(SupervisorSymbolKey);
    supervisorVariance = {
      /* c8 ignore next */
      _T: (_) => _
    };
    ProxySupervisor = class _ProxySupervisor {
      underlying;
      value0;
      [SupervisorTypeId] = supervisorVariance;
      constructor(underlying, value0) {
        this.underlying = underlying;
        this.value0 = value0;
      }
      get value() {
        return this.value0;
      }
      onStart(context2, effect, parent, fiber) {
        this.underlying.onStart(context2, effect, parent, fiber);
      }
      onEnd(value, fiber) {
        this.underlying.onEnd(value, fiber);
      }
      onEffect(fiber, effect) {
        this.underlying.onEffect(fiber, effect);
      }
      onSuspend(fiber) {
        this.underlying.onSuspend(fiber);
      }
      onResume(fiber) {
        this.underlying.onResume(fiber);
      }
      map(f) {
        return new _ProxySupervisor(this, pipe(this.value, map8(f)));
      }
      zip(right3) {
        return new Zip(this, right3);
      }
    };
    Zip = class _Zip {
      left;
      right;
      _tag = "Zip";
      [SupervisorTypeId] = supervisorVariance;
      constructor(left3, right3) {
        this.left = left3;
        this.right = right3;
      }
      get value() {
        return zip2(this.left.value, this.right.value);
      }
      onStart(context2, effect, parent, fiber) {
        this.left.onStart(context2, effect, parent, fiber);
        this.right.onStart(context2, effect, parent, fiber);
      }
      onEnd(value, fiber) {
        this.left.onEnd(value, fiber);
        this.right.onEnd(value, fiber);
      }
      onEffect(fiber, effect) {
        this.left.onEffect(fiber, effect);
        this.right.onEffect(fiber, effect);
      }
      onSuspend(fiber) {
        this.left.onSuspend(fiber);
        this.right.onSuspend(fiber);
      }
      onResume(fiber) {
        this.left.onResume(fiber);
        this.right.onResume(fiber);
      }
      map(f) {
        return new ProxySupervisor(this, pipe(this.value, map8(f)));
      }
      zip(right3) {
        return new _Zip(this, right3);
      }
    };
    isZip = (self) => hasProperty(self, SupervisorTypeId) && isTagged(self, "Zip");
    Track = class {
      [SupervisorTypeId] = supervisorVariance;
      fibers = /* @__PURE__ */ new Set();
      get value() {
        return sync(() => Array.from(this.fibers));
      }
      onStart(_context, _effect, _parent, fiber) {
        this.fibers.add(fiber);
      }
      onEnd(_value, fiber) {
        this.fibers.delete(fiber);
      }
      onEffect(_fiber, _effect) {
      }
      onSuspend(_fiber) {
      }
      onResume(_fiber) {
      }
      map(f) {
        return new ProxySupervisor(this, pipe(this.value, map8(f)));
      }
      zip(right3) {
        return new Zip(this, right3);
      }
      onRun(execution, _fiber) {
        return execution();
      }
    };
    Const = class {
      effect;
      [SupervisorTypeId] = supervisorVariance;
      constructor(effect) {
        this.effect = effect;
      }
      get value() {
        return this.effect;
      }
      onStart(_context, _effect, _parent, _fiber) {
      }
      onEnd(_value, _fiber) {
      }
      onEffect(_fiber, _effect) {
      }
      onSuspend(_fiber) {
      }
      onResume(_fiber) {
      }
      map(f) {
        return new ProxySupervisor(this, pipe(this.value, map8(f)));
      }
      zip(right3) {
        return new Zip(this, right3);
      }
      onRun(execution, _fiber) {
        return execution();
      }
    };
    FibersIn = class {
      ref;
      [SupervisorTypeId] = supervisorVariance;
      constructor(ref) {
        this.ref = ref;
      }
      get value() {
        return sync(() => get5(this.ref));
      }
      onStart(_context, _effect, _parent, fiber) {
        pipe(this.ref, set2(pipe(get5(this.ref), add5(fiber))));
      }
      onEnd(_value, fiber) {
        pipe(this.ref, set2(pipe(get5(this.ref), remove5(fiber))));
      }
      onEffect(_fiber, _effect) {
      }
      onSuspend(_fiber) {
      }
      onResume(_fiber) {
      }
      map(f) {
        return new ProxySupervisor(this, pipe(this.value, map8(f)));
      }
      zip(right3) {
        return new Zip(this, right3);
      }
      onRun(execution, _fiber) {
        return execution();
      }
    };
    fromEffect = (effect) => {
      return new Const(effect);
    };
    none7 = /* @__PURE__ */ globalValue("effect/Supervisor/none", () => fromEffect(void_));
  }
});

// node_modules/effect/dist/esm/Differ.js
var make27;
var init_Differ = __esm({
  "node_modules/effect/dist/esm/Differ.js"() {
    init_differ();
    make27 = make13;
  }
});

// node_modules/effect/dist/esm/internal/supervisor/patch.js
var OP_EMPTY3, OP_ADD_SUPERVISOR, OP_REMOVE_SUPERVISOR, OP_AND_THEN2, empty22, combine7, patch8, patchLoop, removeSupervisor, toSet2, diff7, differ2;
var init_patch2 = __esm({
  "node_modules/effect/dist/esm/internal/supervisor/patch.js"() {
    init_Chunk();
    init_Differ();
    init_Equal();
    init_Function();
    init_HashSet();
    init_supervisor();
    OP_EMPTY3 = "Empty";
    OP_ADD_SUPERVISOR = "AddSupervisor";
    OP_REMOVE_SUPERVISOR = "RemoveSupervisor";
    OP_AND_THEN2 = "AndThen";
    empty22 = {
      _tag: OP_EMPTY3
    };
    combine7 = (self, that) => {
      return {
        _tag: OP_AND_THEN2,
        first: self,
        second: that
      };
    };
    patch8 = (self, supervisor) => {
      return patchLoop(supervisor, of2(self));
    };
    patchLoop = (_supervisor, _patches) => {
      let supervisor = _supervisor;
      let patches = _patches;
      while (isNonEmpty(patches)) {
        const head4 = headNonEmpty2(patches);
        switch (head4._tag) {
          case OP_EMPTY3: {
            patches = tailNonEmpty2(patches);
            break;
          }
          case OP_ADD_SUPERVISOR: {
            supervisor = supervisor.zip(head4.supervisor);
            patches = tailNonEmpty2(patches);
            break;
          }
          case OP_REMOVE_SUPERVISOR: {
            supervisor = removeSupervisor(supervisor, head4.supervisor);
            patches = tailNonEmpty2(patches);
            break;
          }
          case OP_AND_THEN2: {
            patches = prepend2(head4.first)(prepend2(head4.second)(tailNonEmpty2(patches)));
            break;
          }
        }
      }
      return supervisor;
    };
    removeSupervisor = (self, that) => {
      if (equals(self, that)) {
        return none7;
      } else {
        if (isZip(self)) {
          return removeSupervisor(self.left, that).zip(removeSupervisor(self.right, that));
        } else {
          return self;
        }
      }
    };
    toSet2 = (self) => {
      if (equals(self, none7)) {
        return empty5();
      } else {
        if (isZip(self)) {
          return pipe(toSet2(self.left), union3(toSet2(self.right)));
        } else {
          return make7(self);
        }
      }
    };
    diff7 = (oldValue, newValue) => {
      if (equals(oldValue, newValue)) {
        return empty22;
      }
      const oldSupervisors = toSet2(oldValue);
      const newSupervisors = toSet2(newValue);
      const added = pipe(newSupervisors, difference3(oldSupervisors), reduce4(empty22, (patch9, supervisor) => combine7(patch9, {
        _tag: OP_ADD_SUPERVISOR,
        supervisor
      })));
      const removed = pipe(oldSupervisors, difference3(newSupervisors), reduce4(empty22, (patch9, supervisor) => combine7(patch9, {
        _tag: OP_REMOVE_SUPERVISOR,
        supervisor
      })));
      return combine7(added, removed);
    };
    differ2 = /* @__PURE__ */ make27({
      empty: empty22,
      patch: patch8,
      combine: combine7,
      diff: diff7
    });
  }
});

// node_modules/effect/dist/esm/internal/fiberRuntime.js
var fiberStarted, fiberActive, fiberSuccesses, fiberFailures, fiberLifetimes, EvaluationSignalContinue, EvaluationSignalDone, EvaluationSignalYieldNow, runtimeFiberVariance, absurd, YieldedOp, yieldedOpChannel, contOpSuccess, drainQueueWhileRunningTable, runBlockedRequests, _version, FiberRuntime, currentMinimumLogLevel, loggerWithConsoleLog, defaultLogger, tracerLogger, currentLoggers, forEachParUnbounded, forEachConcurrentDiscard, forEachParN, forkDaemon, unsafeFork2, unsafeForkUnstarted, unsafeMakeChildFiber, forkWithScopeOverride, scopeUnsafeAddFinalizer, ScopeImplProto, scopeUnsafeMake, fiberRefUnsafeMakeSupervisor, currentRuntimeFlags, currentSupervisor, ensuring, invokeWithInterrupt;
var init_fiberRuntime = __esm({
  "node_modules/effect/dist/esm/internal/fiberRuntime.js"() {
    init_Array();
    init_Chunk();
    init_Context();
    init_Effectable();
    init_FiberId();
    init_FiberRefs();
    init_FiberRefsPatch();
    init_FiberStatus();
    init_Function();
    init_GlobalValue();
    init_HashSet();
    init_Inspectable();
    init_LogLevel();
    init_Micro();
    init_Option();
    init_Pipeable();
    init_Predicate();
    init_RuntimeFlagsPatch();
    init_Scheduler();
    init_Utils();
    init_blockedRequests();
    init_cause2();
    init_clock();
    init_completedRequestMap();
    init_core_effect();
    init_core();
    init_defaultServices();
    init_console();
    init_executionStrategy();
    init_fiber();
    init_fiberMessage();
    init_fiberRefs();
    init_fiberScope();
    init_logger();
    init_metric();
    init_boundaries();
    init_effect();
    init_request();
    init_runtimeFlags();
    init_runtimeFlags();
    init_supervisor();
    init_patch2();
    init_tracer();
    init_version();
    fiberStarted = /* @__PURE__ */ counter5("effect_fiber_started", {
      incremental: true
    });
    fiberActive = /* @__PURE__ */ counter5("effect_fiber_active");
    fiberSuccesses = /* @__PURE__ */ counter5("effect_fiber_successes", {
      incremental: true
    });
    fiberFailures = /* @__PURE__ */ counter5("effect_fiber_failures", {
      incremental: true
    });
    fiberLifetimes = /* @__PURE__ */ tagged(/* @__PURE__ */ histogram5("effect_fiber_lifetimes", /* @__PURE__ */ exponential({
      start: 0.5,
      factor: 2,
      count: 35
    })), "time_unit", "milliseconds");
    EvaluationSignalContinue = "Continue";
    EvaluationSignalDone = "Done";
    EvaluationSignalYieldNow = "Yield";
    runtimeFiberVariance = {
      /* c8 ignore next */
      _E: (_) => _,
      /* c8 ignore next */
      _A: (_) => _
    };
    absurd = (_) => {
      throw new Error(`BUG: FiberRuntime - ${toStringUnknown(_)} - please report an issue at https://github.com/Effect-TS/effect/issues`);
    };
    YieldedOp = /* @__PURE__ */ Symbol.for("effect/internal/fiberRuntime/YieldedOp");
    yieldedOpChannel = /* @__PURE__ */ globalValue("effect/internal/fiberRuntime/yieldedOpChannel", () => ({
      currentOp: null
    }));
    contOpSuccess = {
      [OP_ON_SUCCESS]: (_, cont, value) => {
        return internalCall(() => cont.effect_instruction_i1(value));
      },
      ["OnStep"]: (_, _cont, value) => {
        return exitSucceed(exitSucceed(value));
      },
      [OP_ON_SUCCESS_AND_FAILURE]: (_, cont, value) => {
        return internalCall(() => cont.effect_instruction_i2(value));
      },
      [OP_REVERT_FLAGS]: (self, cont, value) => {
        self.patchRuntimeFlags(self.currentRuntimeFlags, cont.patch);
        if (interruptible(self.currentRuntimeFlags) && self.isInterrupted()) {
          return exitFailCause(self.getInterruptedCause());
        } else {
          return exitSucceed(value);
        }
      },
      [OP_WHILE]: (self, cont, value) => {
        internalCall(() => cont.effect_instruction_i2(value));
        if (internalCall(() => cont.effect_instruction_i0())) {
          self.pushStack(cont);
          return internalCall(() => cont.effect_instruction_i1());
        } else {
          return void_;
        }
      },
      [OP_ITERATOR]: (self, cont, value) => {
        while (true) {
          const state = internalCall(() => cont.effect_instruction_i0.next(value));
          if (state.done) {
            return exitSucceed(state.value);
          }
          const primitive = yieldWrapGet(state.value);
          if (!exitIsExit(primitive)) {
            self.pushStack(cont);
            return primitive;
          } else if (primitive._tag === "Failure") {
            return primitive;
          }
          value = primitive.value;
        }
      }
    };
    drainQueueWhileRunningTable = {
      [OP_INTERRUPT_SIGNAL]: (self, runtimeFlags2, cur, message) => {
        self.processNewInterruptSignal(message.cause);
        return interruptible(runtimeFlags2) ? exitFailCause(message.cause) : cur;
      },
      [OP_RESUME]: (_self, _runtimeFlags, _cur, _message) => {
        throw new Error("It is illegal to have multiple concurrent run loops in a single fiber");
      },
      [OP_STATEFUL]: (self, runtimeFlags2, cur, message) => {
        message.onFiber(self, running2(runtimeFlags2));
        return cur;
      },
      [OP_YIELD_NOW]: (_self, _runtimeFlags, cur, _message) => {
        return flatMap6(yieldNow(), () => cur);
      }
    };
    runBlockedRequests = (self) => forEachSequentialDiscard(flatten2(self), (requestsByRequestResolver) => forEachConcurrentDiscard(sequentialCollectionToChunk(requestsByRequestResolver), ([dataSource, sequential3]) => {
      const map10 = /* @__PURE__ */ new Map();
      const arr = [];
      for (const block of sequential3) {
        arr.push(toReadonlyArray(block));
        for (const entry of block) {
          map10.set(entry.request, entry);
        }
      }
      const flat = arr.flat();
      return fiberRefLocally(invokeWithInterrupt(dataSource.runAll(arr), flat, () => flat.forEach((entry) => {
        entry.listeners.interrupted = true;
      })), currentRequestMap, map10);
    }, false, false));
    _version = /* @__PURE__ */ getCurrentVersion();
    FiberRuntime = class extends Class2 {
      [FiberTypeId] = fiberVariance2;
      [RuntimeFiberTypeId] = runtimeFiberVariance;
      _fiberRefs;
      _fiberId;
      _queue = /* @__PURE__ */ new Array();
      _children = null;
      _observers = /* @__PURE__ */ new Array();
      _running = false;
      _stack = [];
      _asyncInterruptor = null;
      _asyncBlockingOn = null;
      _exitValue = null;
      _steps = [];
      _isYielding = false;
      currentRuntimeFlags;
      currentOpCount = 0;
      currentSupervisor;
      currentScheduler;
      currentTracer;
      currentSpan;
      currentContext;
      currentDefaultServices;
      constructor(fiberId2, fiberRefs0, runtimeFlags0) {
        super();
        this.currentRuntimeFlags = runtimeFlags0;
        this._fiberId = fiberId2;
        this._fiberRefs = fiberRefs0;
        if (runtimeMetrics(runtimeFlags0)) {
          const tags = this.getFiberRef(currentMetricLabels);
          fiberStarted.unsafeUpdate(1, tags);
          fiberActive.unsafeUpdate(1, tags);
        }
        this.refreshRefCache();
      }
      commit() {
        return join2(this);
      }
      /**
       * The identity of the fiber.
       */
      id() {
        return this._fiberId;
      }
      /**
       * Begins execution of the effect associated with this fiber on in the
       * background. This can be called to "kick off" execution of a fiber after
       * it has been created.
       */
      resume(effect) {
        this.tell(resume(effect));
      }
      /**
       * The status of the fiber.
       */
      get status() {
        return this.ask((_, status) => status);
      }
      /**
       * Gets the fiber runtime flags.
       */
      get runtimeFlags() {
        return this.ask((state, status) => {
          if (isDone2(status)) {
            return state.currentRuntimeFlags;
          }
          return status.runtimeFlags;
        });
      }
      /**
       * Returns the current `FiberScope` for the fiber.
       */
      scope() {
        return unsafeMake4(this);
      }
      /**
       * Retrieves the immediate children of the fiber.
       */
      get children() {
        return this.ask((fiber) => Array.from(fiber.getChildren()));
      }
      /**
       * Gets the fiber's set of children.
       */
      getChildren() {
        if (this._children === null) {
          this._children = /* @__PURE__ */ new Set();
        }
        return this._children;
      }
      /**
       * Retrieves the interrupted cause of the fiber, which will be `Cause.empty`
       * if the fiber has not been interrupted.
       *
       * **NOTE**: This method is safe to invoke on any fiber, but if not invoked
       * on this fiber, then values derived from the fiber's state (including the
       * log annotations and log level) may not be up-to-date.
       */
      getInterruptedCause() {
        return this.getFiberRef(currentInterruptedCause);
      }
      /**
       * Retrieves the whole set of fiber refs.
       */
      fiberRefs() {
        return this.ask((fiber) => fiber.getFiberRefs());
      }
      /**
       * Returns an effect that will contain information computed from the fiber
       * state and status while running on the fiber.
       *
       * This allows the outside world to interact safely with mutable fiber state
       * without locks or immutable data.
       */
      ask(f) {
        return suspend(() => {
          const deferred = deferredUnsafeMake(this._fiberId);
          this.tell(stateful((fiber, status) => {
            deferredUnsafeDone(deferred, sync(() => f(fiber, status)));
          }));
          return deferredAwait(deferred);
        });
      }
      /**
       * Adds a message to be processed by the fiber on the fiber.
       */
      tell(message) {
        this._queue.push(message);
        if (!this._running) {
          this._running = true;
          this.drainQueueLaterOnExecutor();
        }
      }
      get await() {
        return async_((resume2) => {
          const cb = (exit3) => resume2(succeed(exit3));
          if (this._exitValue !== null) {
            cb(this._exitValue);
            return;
          }
          this.tell(stateful((fiber, _) => {
            if (fiber._exitValue !== null) {
              cb(this._exitValue);
            } else {
              fiber.addObserver(cb);
            }
          }));
          return sync(() => this.tell(stateful((fiber, _) => {
            fiber.removeObserver(cb);
          })));
        }, this.id());
      }
      get inheritAll() {
        return withFiberRuntime((parentFiber, parentStatus) => {
          const parentFiberId = parentFiber.id();
          const parentFiberRefs = parentFiber.getFiberRefs();
          const parentRuntimeFlags = parentStatus.runtimeFlags;
          const childFiberRefs = this.getFiberRefs();
          const updatedFiberRefs = joinAs(parentFiberRefs, parentFiberId, childFiberRefs);
          parentFiber.setFiberRefs(updatedFiberRefs);
          const updatedRuntimeFlags = parentFiber.getFiberRef(currentRuntimeFlags);
          const patch9 = pipe(
            diff4(parentRuntimeFlags, updatedRuntimeFlags),
            // Do not inherit WindDown or Interruption!
            exclude2(Interruption),
            exclude2(WindDown)
          );
          return updateRuntimeFlags(patch9);
        });
      }
      /**
       * Tentatively observes the fiber, but returns immediately if it is not
       * already done.
       */
      get poll() {
        return sync(() => fromNullable(this._exitValue));
      }
      /**
       * Unsafely observes the fiber, but returns immediately if it is not
       * already done.
       */
      unsafePoll() {
        return this._exitValue;
      }
      /**
       * In the background, interrupts the fiber as if interrupted from the specified fiber.
       */
      interruptAsFork(fiberId2) {
        return sync(() => this.tell(interruptSignal(interrupt(fiberId2))));
      }
      /**
       * In the background, interrupts the fiber as if interrupted from the specified fiber.
       */
      unsafeInterruptAsFork(fiberId2) {
        this.tell(interruptSignal(interrupt(fiberId2)));
      }
      /**
       * Adds an observer to the list of observers.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      addObserver(observer) {
        if (this._exitValue !== null) {
          observer(this._exitValue);
        } else {
          this._observers.push(observer);
        }
      }
      /**
       * Removes the specified observer from the list of observers that will be
       * notified when the fiber exits.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      removeObserver(observer) {
        this._observers = this._observers.filter((o) => o !== observer);
      }
      /**
       * Retrieves all fiber refs of the fiber.
       *
       * **NOTE**: This method is safe to invoke on any fiber, but if not invoked
       * on this fiber, then values derived from the fiber's state (including the
       * log annotations and log level) may not be up-to-date.
       */
      getFiberRefs() {
        this.setFiberRef(currentRuntimeFlags, this.currentRuntimeFlags);
        return this._fiberRefs;
      }
      /**
       * Deletes the specified fiber ref.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      unsafeDeleteFiberRef(fiberRef) {
        this._fiberRefs = delete_(this._fiberRefs, fiberRef);
      }
      /**
       * Retrieves the state of the fiber ref, or else its initial value.
       *
       * **NOTE**: This method is safe to invoke on any fiber, but if not invoked
       * on this fiber, then values derived from the fiber's state (including the
       * log annotations and log level) may not be up-to-date.
       */
      getFiberRef(fiberRef) {
        if (this._fiberRefs.locals.has(fiberRef)) {
          return this._fiberRefs.locals.get(fiberRef)[0][1];
        }
        return fiberRef.initial;
      }
      /**
       * Sets the fiber ref to the specified value.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      setFiberRef(fiberRef, value) {
        this._fiberRefs = updateAs(this._fiberRefs, {
          fiberId: this._fiberId,
          fiberRef,
          value
        });
        this.refreshRefCache();
      }
      refreshRefCache() {
        this.currentDefaultServices = this.getFiberRef(currentServices);
        this.currentTracer = this.currentDefaultServices.unsafeMap.get(tracerTag.key);
        this.currentSupervisor = this.getFiberRef(currentSupervisor);
        this.currentScheduler = this.getFiberRef(currentScheduler);
        this.currentContext = this.getFiberRef(currentContext);
        this.currentSpan = this.currentContext.unsafeMap.get(spanTag.key);
      }
      /**
       * Wholesale replaces all fiber refs of this fiber.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      setFiberRefs(fiberRefs3) {
        this._fiberRefs = fiberRefs3;
        this.refreshRefCache();
      }
      /**
       * Adds a reference to the specified fiber inside the children set.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      addChild(child) {
        this.getChildren().add(child);
      }
      /**
       * Removes a reference to the specified fiber inside the children set.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      removeChild(child) {
        this.getChildren().delete(child);
      }
      /**
       * Transfers all children of this fiber that are currently running to the
       * specified fiber scope.
       *
       * **NOTE**: This method must be invoked by the fiber itself after it has
       * evaluated the effects but prior to exiting.
       */
      transferChildren(scope) {
        const children = this._children;
        this._children = null;
        if (children !== null && children.size > 0) {
          for (const child of children) {
            if (child._exitValue === null) {
              scope.add(this.currentRuntimeFlags, child);
            }
          }
        }
      }
      /**
       * On the current thread, executes all messages in the fiber's inbox. This
       * method may return before all work is done, in the event the fiber executes
       * an asynchronous operation.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      drainQueueOnCurrentThread() {
        let recurse = true;
        while (recurse) {
          let evaluationSignal = EvaluationSignalContinue;
          const prev = globalThis[currentFiberURI];
          globalThis[currentFiberURI] = this;
          try {
            while (evaluationSignal === EvaluationSignalContinue) {
              evaluationSignal = this._queue.length === 0 ? EvaluationSignalDone : this.evaluateMessageWhileSuspended(this._queue.splice(0, 1)[0]);
            }
          } finally {
            this._running = false;
            globalThis[currentFiberURI] = prev;
          }
          if (this._queue.length > 0 && !this._running) {
            this._running = true;
            if (evaluationSignal === EvaluationSignalYieldNow) {
              this.drainQueueLaterOnExecutor();
              recurse = false;
            } else {
              recurse = true;
            }
          } else {
            recurse = false;
          }
        }
      }
      /**
       * Schedules the execution of all messages in the fiber's inbox.
       *
       * This method will return immediately after the scheduling
       * operation is completed, but potentially before such messages have been
       * executed.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      drainQueueLaterOnExecutor() {
        this.currentScheduler.scheduleTask(this.run, this.getFiberRef(currentSchedulingPriority), this);
      }
      /**
       * Drains the fiber's message queue while the fiber is actively running,
       * returning the next effect to execute, which may be the input effect if no
       * additional effect needs to be executed.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      drainQueueWhileRunning(runtimeFlags2, cur0) {
        let cur = cur0;
        while (this._queue.length > 0) {
          const message = this._queue.splice(0, 1)[0];
          cur = drainQueueWhileRunningTable[message._tag](this, runtimeFlags2, cur, message);
        }
        return cur;
      }
      /**
       * Determines if the fiber is interrupted.
       *
       * **NOTE**: This method is safe to invoke on any fiber, but if not invoked
       * on this fiber, then values derived from the fiber's state (including the
       * log annotations and log level) may not be up-to-date.
       */
      isInterrupted() {
        return !isEmpty3(this.getFiberRef(currentInterruptedCause));
      }
      /**
       * Adds an interruptor to the set of interruptors that are interrupting this
       * fiber.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      addInterruptedCause(cause2) {
        const oldSC = this.getFiberRef(currentInterruptedCause);
        this.setFiberRef(currentInterruptedCause, sequential(oldSC, cause2));
      }
      /**
       * Processes a new incoming interrupt signal.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      processNewInterruptSignal(cause2) {
        this.addInterruptedCause(cause2);
        this.sendInterruptSignalToAllChildren();
      }
      /**
       * Interrupts all children of the current fiber, returning an effect that will
       * await the exit of the children. This method will return null if the fiber
       * has no children.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      sendInterruptSignalToAllChildren() {
        if (this._children === null || this._children.size === 0) {
          return false;
        }
        let told = false;
        for (const child of this._children) {
          child.tell(interruptSignal(interrupt(this.id())));
          told = true;
        }
        return told;
      }
      /**
       * Interrupts all children of the current fiber, returning an effect that will
       * await the exit of the children. This method will return null if the fiber
       * has no children.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      interruptAllChildren() {
        if (this.sendInterruptSignalToAllChildren()) {
          const it = this._children.values();
          this._children = null;
          let isDone3 = false;
          const body = () => {
            const next = it.next();
            if (!next.done) {
              return asVoid(next.value.await);
            } else {
              return sync(() => {
                isDone3 = true;
              });
            }
          };
          return whileLoop({
            while: () => !isDone3,
            body,
            step: () => {
            }
          });
        }
        return null;
      }
      reportExitValue(exit3) {
        if (runtimeMetrics(this.currentRuntimeFlags)) {
          const tags = this.getFiberRef(currentMetricLabels);
          const startTimeMillis = this.id().startTimeMillis;
          const endTimeMillis = Date.now();
          fiberLifetimes.unsafeUpdate(endTimeMillis - startTimeMillis, tags);
          fiberActive.unsafeUpdate(-1, tags);
          switch (exit3._tag) {
            case OP_SUCCESS: {
              fiberSuccesses.unsafeUpdate(1, tags);
              break;
            }
            case OP_FAILURE: {
              fiberFailures.unsafeUpdate(1, tags);
              break;
            }
          }
        }
        if (exit3._tag === "Failure") {
          const level = this.getFiberRef(currentUnhandledErrorLogLevel);
          if (!isInterruptedOnly(exit3.cause) && level._tag === "Some") {
            this.log("Fiber terminated with an unhandled error", exit3.cause, level);
          }
        }
      }
      setExitValue(exit3) {
        this._exitValue = exit3;
        this.reportExitValue(exit3);
        for (let i = this._observers.length - 1; i >= 0; i--) {
          this._observers[i](exit3);
        }
        this._observers = [];
      }
      getLoggers() {
        return this.getFiberRef(currentLoggers);
      }
      log(message, cause2, overrideLogLevel) {
        const logLevel = isSome2(overrideLogLevel) ? overrideLogLevel.value : this.getFiberRef(currentLogLevel);
        const minimumLogLevel = this.getFiberRef(currentMinimumLogLevel);
        if (greaterThan2(minimumLogLevel, logLevel)) {
          return;
        }
        const spans = this.getFiberRef(currentLogSpan);
        const annotations = this.getFiberRef(currentLogAnnotations);
        const loggers = this.getLoggers();
        const contextMap = this.getFiberRefs();
        if (size3(loggers) > 0) {
          const clockService = get4(this.getFiberRef(currentServices), clockTag);
          const date = new Date(clockService.unsafeCurrentTimeMillis());
          withRedactableContext(contextMap, () => {
            for (const logger of loggers) {
              logger.log({
                fiberId: this.id(),
                logLevel,
                message,
                cause: cause2,
                context: contextMap,
                spans,
                annotations,
                date
              });
            }
          });
        }
      }
      /**
       * Evaluates a single message on the current thread, while the fiber is
       * suspended. This method should only be called while evaluation of the
       * fiber's effect is suspended due to an asynchronous operation.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      evaluateMessageWhileSuspended(message) {
        switch (message._tag) {
          case OP_YIELD_NOW: {
            return EvaluationSignalYieldNow;
          }
          case OP_INTERRUPT_SIGNAL: {
            this.processNewInterruptSignal(message.cause);
            if (this._asyncInterruptor !== null) {
              this._asyncInterruptor(exitFailCause(message.cause));
              this._asyncInterruptor = null;
            }
            return EvaluationSignalContinue;
          }
          case OP_RESUME: {
            this._asyncInterruptor = null;
            this._asyncBlockingOn = null;
            this.evaluateEffect(message.effect);
            return EvaluationSignalContinue;
          }
          case OP_STATEFUL: {
            message.onFiber(this, this._exitValue !== null ? done3 : suspended2(this.currentRuntimeFlags, this._asyncBlockingOn));
            return EvaluationSignalContinue;
          }
          default: {
            return absurd(message);
          }
        }
      }
      /**
       * Evaluates an effect until completion, potentially asynchronously.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      evaluateEffect(effect0) {
        this.currentSupervisor.onResume(this);
        try {
          let effect = interruptible(this.currentRuntimeFlags) && this.isInterrupted() ? exitFailCause(this.getInterruptedCause()) : effect0;
          while (effect !== null) {
            const eff = effect;
            const exit3 = this.runLoop(eff);
            if (exit3 === YieldedOp) {
              const op = yieldedOpChannel.currentOp;
              yieldedOpChannel.currentOp = null;
              if (op._op === OP_YIELD) {
                if (cooperativeYielding(this.currentRuntimeFlags)) {
                  this.tell(yieldNow3());
                  this.tell(resume(exitVoid));
                  effect = null;
                } else {
                  effect = exitVoid;
                }
              } else if (op._op === OP_ASYNC) {
                effect = null;
              }
            } else {
              this.currentRuntimeFlags = pipe(this.currentRuntimeFlags, enable2(WindDown));
              const interruption2 = this.interruptAllChildren();
              if (interruption2 !== null) {
                effect = flatMap6(interruption2, () => exit3);
              } else {
                if (this._queue.length === 0) {
                  this.setExitValue(exit3);
                } else {
                  this.tell(resume(exit3));
                }
                effect = null;
              }
            }
          }
        } finally {
          this.currentSupervisor.onSuspend(this);
        }
      }
      /**
       * Begins execution of the effect associated with this fiber on the current
       * thread. This can be called to "kick off" execution of a fiber after it has
       * been created, in hopes that the effect can be executed synchronously.
       *
       * This is not the normal way of starting a fiber, but it is useful when the
       * express goal of executing the fiber is to synchronously produce its exit.
       */
      start(effect) {
        if (!this._running) {
          this._running = true;
          const prev = globalThis[currentFiberURI];
          globalThis[currentFiberURI] = this;
          try {
            this.evaluateEffect(effect);
          } finally {
            this._running = false;
            globalThis[currentFiberURI] = prev;
            if (this._queue.length > 0) {
              this.drainQueueLaterOnExecutor();
            }
          }
        } else {
          this.tell(resume(effect));
        }
      }
      /**
       * Begins execution of the effect associated with this fiber on in the
       * background, and on the correct thread pool. This can be called to "kick
       * off" execution of a fiber after it has been created, in hopes that the
       * effect can be executed synchronously.
       */
      startFork(effect) {
        this.tell(resume(effect));
      }
      /**
       * Takes the current runtime flags, patches them to return the new runtime
       * flags, and then makes any changes necessary to fiber state based on the
       * specified patch.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      patchRuntimeFlags(oldRuntimeFlags, patch9) {
        const newRuntimeFlags = patch4(oldRuntimeFlags, patch9);
        globalThis[currentFiberURI] = this;
        this.currentRuntimeFlags = newRuntimeFlags;
        return newRuntimeFlags;
      }
      /**
       * Initiates an asynchronous operation, by building a callback that will
       * resume execution, and then feeding that callback to the registration
       * function, handling error cases and repeated resumptions appropriately.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      initiateAsync(runtimeFlags2, asyncRegister) {
        let alreadyCalled = false;
        const callback = (effect) => {
          if (!alreadyCalled) {
            alreadyCalled = true;
            this.tell(resume(effect));
          }
        };
        if (interruptible(runtimeFlags2)) {
          this._asyncInterruptor = callback;
        }
        try {
          asyncRegister(callback);
        } catch (e) {
          callback(failCause(die(e)));
        }
      }
      pushStack(cont) {
        this._stack.push(cont);
        if (cont._op === "OnStep") {
          this._steps.push({
            refs: this.getFiberRefs(),
            flags: this.currentRuntimeFlags
          });
        }
      }
      popStack() {
        const item = this._stack.pop();
        if (item) {
          if (item._op === "OnStep") {
            this._steps.pop();
          }
          return item;
        }
        return;
      }
      getNextSuccessCont() {
        let frame = this.popStack();
        while (frame) {
          if (frame._op !== OP_ON_FAILURE) {
            return frame;
          }
          frame = this.popStack();
        }
      }
      getNextFailCont() {
        let frame = this.popStack();
        while (frame) {
          if (frame._op !== OP_ON_SUCCESS && frame._op !== OP_WHILE && frame._op !== OP_ITERATOR) {
            return frame;
          }
          frame = this.popStack();
        }
      }
      [OP_TAG](op) {
        return sync(() => unsafeGet4(this.currentContext, op));
      }
      ["Left"](op) {
        return fail2(op.left);
      }
      ["None"](_) {
        return fail2(new NoSuchElementException());
      }
      ["Right"](op) {
        return exitSucceed(op.right);
      }
      ["Some"](op) {
        return exitSucceed(op.value);
      }
      ["Micro"](op) {
        return unsafeAsync((microResume) => {
          let resume2 = microResume;
          const fiber = runFork(provideContext2(op, this.currentContext));
          fiber.addObserver((exit3) => {
            if (exit3._tag === "Success") {
              return resume2(exitSucceed(exit3.value));
            }
            switch (exit3.cause._tag) {
              case "Interrupt": {
                return resume2(exitFailCause(interrupt(none4)));
              }
              case "Fail": {
                return resume2(fail2(exit3.cause.error));
              }
              case "Die": {
                return resume2(die2(exit3.cause.defect));
              }
            }
          });
          return unsafeAsync((abortResume) => {
            resume2 = (_) => {
              abortResume(void_);
            };
            fiber.unsafeInterrupt();
          });
        });
      }
      [OP_SYNC](op) {
        const value = internalCall(() => op.effect_instruction_i0());
        const cont = this.getNextSuccessCont();
        if (cont !== void 0) {
          if (!(cont._op in contOpSuccess)) {
            absurd(cont);
          }
          return contOpSuccess[cont._op](this, cont, value);
        } else {
          yieldedOpChannel.currentOp = exitSucceed(value);
          return YieldedOp;
        }
      }
      [OP_SUCCESS](op) {
        const oldCur = op;
        const cont = this.getNextSuccessCont();
        if (cont !== void 0) {
          if (!(cont._op in contOpSuccess)) {
            absurd(cont);
          }
          return contOpSuccess[cont._op](this, cont, oldCur.effect_instruction_i0);
        } else {
          yieldedOpChannel.currentOp = oldCur;
          return YieldedOp;
        }
      }
      [OP_FAILURE](op) {
        const cause2 = op.effect_instruction_i0;
        const cont = this.getNextFailCont();
        if (cont !== void 0) {
          switch (cont._op) {
            case OP_ON_FAILURE:
            case OP_ON_SUCCESS_AND_FAILURE: {
              if (!(interruptible(this.currentRuntimeFlags) && this.isInterrupted())) {
                return internalCall(() => cont.effect_instruction_i1(cause2));
              } else {
                return exitFailCause(stripFailures(cause2));
              }
            }
            case "OnStep": {
              if (!(interruptible(this.currentRuntimeFlags) && this.isInterrupted())) {
                return exitSucceed(exitFailCause(cause2));
              } else {
                return exitFailCause(stripFailures(cause2));
              }
            }
            case OP_REVERT_FLAGS: {
              this.patchRuntimeFlags(this.currentRuntimeFlags, cont.patch);
              if (interruptible(this.currentRuntimeFlags) && this.isInterrupted()) {
                return exitFailCause(sequential(cause2, this.getInterruptedCause()));
              } else {
                return exitFailCause(cause2);
              }
            }
            default: {
              absurd(cont);
            }
          }
        } else {
          yieldedOpChannel.currentOp = exitFailCause(cause2);
          return YieldedOp;
        }
      }
      [OP_WITH_RUNTIME](op) {
        return internalCall(() => op.effect_instruction_i0(this, running2(this.currentRuntimeFlags)));
      }
      ["Blocked"](op) {
        const refs = this.getFiberRefs();
        const flags = this.currentRuntimeFlags;
        if (this._steps.length > 0) {
          const frames = [];
          const snap = this._steps[this._steps.length - 1];
          let frame = this.popStack();
          while (frame && frame._op !== "OnStep") {
            frames.push(frame);
            frame = this.popStack();
          }
          this.setFiberRefs(snap.refs);
          this.currentRuntimeFlags = snap.flags;
          const patchRefs = diff6(snap.refs, refs);
          const patchFlags = diff4(snap.flags, flags);
          return exitSucceed(blocked(op.effect_instruction_i0, withFiberRuntime((newFiber) => {
            while (frames.length > 0) {
              newFiber.pushStack(frames.pop());
            }
            newFiber.setFiberRefs(patch7(newFiber.id(), newFiber.getFiberRefs())(patchRefs));
            newFiber.currentRuntimeFlags = patch4(patchFlags)(newFiber.currentRuntimeFlags);
            return op.effect_instruction_i1;
          })));
        }
        return uninterruptibleMask((restore) => flatMap6(forkDaemon(runRequestBlock(op.effect_instruction_i0)), () => restore(op.effect_instruction_i1)));
      }
      ["RunBlocked"](op) {
        return runBlockedRequests(op.effect_instruction_i0);
      }
      [OP_UPDATE_RUNTIME_FLAGS](op) {
        const updateFlags = op.effect_instruction_i0;
        const oldRuntimeFlags = this.currentRuntimeFlags;
        const newRuntimeFlags = patch4(oldRuntimeFlags, updateFlags);
        if (interruptible(newRuntimeFlags) && this.isInterrupted()) {
          return exitFailCause(this.getInterruptedCause());
        } else {
          this.patchRuntimeFlags(this.currentRuntimeFlags, updateFlags);
          if (op.effect_instruction_i1) {
            const revertFlags = diff4(newRuntimeFlags, oldRuntimeFlags);
            this.pushStack(new RevertFlags(revertFlags, op));
            return internalCall(() => op.effect_instruction_i1(oldRuntimeFlags));
          } else {
            return exitVoid;
          }
        }
      }
      [OP_ON_SUCCESS](op) {
        this.pushStack(op);
        return op.effect_instruction_i0;
      }
      ["OnStep"](op) {
        this.pushStack(op);
        return op.effect_instruction_i0;
      }
      [OP_ON_FAILURE](op) {
        this.pushStack(op);
        return op.effect_instruction_i0;
      }
      [OP_ON_SUCCESS_AND_FAILURE](op) {
        this.pushStack(op);
        return op.effect_instruction_i0;
      }
      [OP_ASYNC](op) {
        this._asyncBlockingOn = op.effect_instruction_i1;
        this.initiateAsync(this.currentRuntimeFlags, op.effect_instruction_i0);
        yieldedOpChannel.currentOp = op;
        return YieldedOp;
      }
      [OP_YIELD](op) {
        this._isYielding = false;
        yieldedOpChannel.currentOp = op;
        return YieldedOp;
      }
      [OP_WHILE](op) {
        const check = op.effect_instruction_i0;
        const body = op.effect_instruction_i1;
        if (check()) {
          this.pushStack(op);
          return body();
        } else {
          return exitVoid;
        }
      }
      [OP_ITERATOR](op) {
        return contOpSuccess[OP_ITERATOR](this, op, void 0);
      }
      [OP_COMMIT](op) {
        return internalCall(() => op.commit());
      }
      /**
       * The main run-loop for evaluating effects.
       *
       * **NOTE**: This method must be invoked by the fiber itself.
       */
      runLoop(effect0) {
        let cur = effect0;
        this.currentOpCount = 0;
        while (true) {
          if ((this.currentRuntimeFlags & OpSupervision) !== 0) {
            this.currentSupervisor.onEffect(this, cur);
          }
          if (this._queue.length > 0) {
            cur = this.drainQueueWhileRunning(this.currentRuntimeFlags, cur);
          }
          if (!this._isYielding) {
            this.currentOpCount += 1;
            const shouldYield = this.currentScheduler.shouldYield(this);
            if (shouldYield !== false) {
              this._isYielding = true;
              this.currentOpCount = 0;
              const oldCur = cur;
              cur = flatMap6(yieldNow({
                priority: shouldYield
              }), () => oldCur);
            }
          }
          try {
            cur = this.currentTracer.context(() => {
              if (_version !== cur[EffectTypeId2]._V) {
                const level = this.getFiberRef(currentVersionMismatchErrorLogLevel);
                if (level._tag === "Some") {
                  const effectVersion = cur[EffectTypeId2]._V;
                  this.log(`Executing an Effect versioned ${effectVersion} with a Runtime of version ${getCurrentVersion()}, you may want to dedupe the effect dependencies, you can use the language service plugin to detect this at compile time: https://github.com/Effect-TS/language-service`, empty6, level);
                }
              }
              return this[cur._op](cur);
            }, this);
            if (cur === YieldedOp) {
              const op = yieldedOpChannel.currentOp;
              if (op._op === OP_YIELD || op._op === OP_ASYNC) {
                return YieldedOp;
              }
              yieldedOpChannel.currentOp = null;
              return op._op === OP_SUCCESS || op._op === OP_FAILURE ? op : exitFailCause(die(op));
            }
          } catch (e) {
            if (cur !== YieldedOp && !hasProperty(cur, "_op") || !(cur._op in this)) {
              cur = dieMessage(`Not a valid effect: ${toStringUnknown(cur)}`);
            } else if (isInterruptedException(e)) {
              cur = exitFailCause(sequential(die(e), interrupt(none4)));
            } else {
              cur = die2(e);
            }
          }
        }
      }
      run = () => {
        this.drainQueueOnCurrentThread();
      };
    };
    currentMinimumLogLevel = /* @__PURE__ */ globalValue("effect/FiberRef/currentMinimumLogLevel", () => fiberRefUnsafeMake(fromLiteral("Info")));
    loggerWithConsoleLog = (self) => makeLogger((opts) => {
      const services = getOrDefault2(opts.context, currentServices);
      get4(services, consoleTag).unsafe.log(self.log(opts));
    });
    defaultLogger = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/Logger/defaultLogger"), () => loggerWithConsoleLog(stringLogger));
    tracerLogger = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/Logger/tracerLogger"), () => makeLogger(({
      annotations,
      cause: cause2,
      context: context2,
      fiberId: fiberId2,
      logLevel,
      message
    }) => {
      const span2 = filterDisablePropagation(getOption2(getOrDefault(context2, currentContext), spanTag));
      if (span2._tag === "None" || span2.value._tag === "ExternalSpan") {
        return;
      }
      const clockService = unsafeGet4(getOrDefault(context2, currentServices), clockTag);
      const attributes = {};
      for (const [key, value] of annotations) {
        attributes[key] = value;
      }
      attributes["effect.fiberId"] = threadName2(fiberId2);
      attributes["effect.logLevel"] = logLevel.label;
      if (cause2 !== null && cause2._tag !== "Empty") {
        attributes["effect.cause"] = pretty(cause2, {
          renderErrorCause: true
        });
      }
      span2.value.event(toStringUnknown(Array.isArray(message) && message.length === 1 ? message[0] : message), clockService.unsafeCurrentTimeNanos(), attributes);
    }));
    currentLoggers = /* @__PURE__ */ globalValue(/* @__PURE__ */ Symbol.for("effect/FiberRef/currentLoggers"), () => fiberRefUnsafeMakeHashSet(make7(defaultLogger, tracerLogger)));
    forEachParUnbounded = (self, f, batching) => suspend(() => {
      const as3 = fromIterable(self);
      const array3 = new Array(as3.length);
      const fn2 = (a, i) => flatMap6(f(a, i), (b) => sync(() => array3[i] = b));
      return zipRight(forEachConcurrentDiscard(as3, fn2, batching, false), succeed(array3));
    });
    forEachConcurrentDiscard = (self, f, batching, processAll, n) => uninterruptibleMask((restore) => transplant((graft) => withFiberRuntime((parent) => {
      let todos = Array.from(self).reverse();
      let target = todos.length;
      if (target === 0) {
        return void_;
      }
      let counter6 = 0;
      let interrupted = false;
      const fibersCount = n ? Math.min(todos.length, n) : todos.length;
      const fibers = /* @__PURE__ */ new Set();
      const results = new Array();
      const interruptAll = () => fibers.forEach((fiber) => {
        fiber.currentScheduler.scheduleTask(() => {
          fiber.unsafeInterruptAsFork(parent.id());
        }, 0, fiber);
      });
      const startOrder = new Array();
      const joinOrder = new Array();
      const residual = new Array();
      const collectExits = () => {
        const exits = results.filter(({
          exit: exit3
        }) => exit3._tag === "Failure").sort((a, b) => a.index < b.index ? -1 : a.index === b.index ? 0 : 1).map(({
          exit: exit3
        }) => exit3);
        if (exits.length === 0) {
          exits.push(exitVoid);
        }
        return exits;
      };
      const runFiber = (eff, interruptImmediately = false) => {
        const runnable = uninterruptible(graft(eff));
        const fiber = unsafeForkUnstarted(runnable, parent, parent.currentRuntimeFlags, globalScope);
        parent.currentScheduler.scheduleTask(() => {
          if (interruptImmediately) {
            fiber.unsafeInterruptAsFork(parent.id());
          }
          fiber.resume(runnable);
        }, 0, fiber);
        return fiber;
      };
      const onInterruptSignal = () => {
        if (!processAll) {
          target -= todos.length;
          todos = [];
        }
        interrupted = true;
        interruptAll();
      };
      const stepOrExit = batching ? step2 : exit;
      const processingFiber = runFiber(async_((resume2) => {
        const pushResult = (res, index) => {
          if (res._op === "Blocked") {
            residual.push(res);
          } else {
            results.push({
              index,
              exit: res
            });
            if (res._op === "Failure" && !interrupted) {
              onInterruptSignal();
            }
          }
        };
        const next = () => {
          if (todos.length > 0) {
            const a = todos.pop();
            let index = counter6++;
            const returnNextElement = () => {
              const a2 = todos.pop();
              index = counter6++;
              return flatMap6(yieldNow(), () => flatMap6(stepOrExit(restore(f(a2, index))), onRes));
            };
            const onRes = (res) => {
              if (todos.length > 0) {
                pushResult(res, index);
                if (todos.length > 0) {
                  return returnNextElement();
                }
              }
              return succeed(res);
            };
            const todo = flatMap6(stepOrExit(restore(f(a, index))), onRes);
            const fiber = runFiber(todo);
            startOrder.push(fiber);
            fibers.add(fiber);
            if (interrupted) {
              fiber.currentScheduler.scheduleTask(() => {
                fiber.unsafeInterruptAsFork(parent.id());
              }, 0, fiber);
            }
            fiber.addObserver((wrapped) => {
              let exit3;
              if (wrapped._op === "Failure") {
                exit3 = wrapped;
              } else {
                exit3 = wrapped.effect_instruction_i0;
              }
              joinOrder.push(fiber);
              fibers.delete(fiber);
              pushResult(exit3, index);
              if (results.length === target) {
                resume2(succeed(getOrElse(exitCollectAll(collectExits(), {
                  parallel: true
                }), () => exitVoid)));
              } else if (residual.length + results.length === target) {
                const exits = collectExits();
                const requests = residual.map((blocked2) => blocked2.effect_instruction_i0).reduce(par);
                resume2(succeed(blocked(requests, forEachConcurrentDiscard([getOrElse(exitCollectAll(exits, {
                  parallel: true
                }), () => exitVoid), ...residual.map((blocked2) => blocked2.effect_instruction_i1)], (i) => i, batching, true, n))));
              } else {
                next();
              }
            });
          }
        };
        for (let i = 0; i < fibersCount; i++) {
          next();
        }
      }));
      return asVoid(onExit(flatten3(restore(join2(processingFiber))), exitMatch({
        onFailure: (cause2) => {
          onInterruptSignal();
          const target2 = residual.length + 1;
          const concurrency = Math.min(typeof n === "number" ? n : residual.length, residual.length);
          const toPop = Array.from(residual);
          return async_((cb) => {
            const exits = [];
            let count = 0;
            let index = 0;
            const check = (index2, hitNext) => (exit3) => {
              exits[index2] = exit3;
              count++;
              if (count === target2) {
                cb(exitSucceed(exitFailCause(cause2)));
              }
              if (toPop.length > 0 && hitNext) {
                next();
              }
            };
            const next = () => {
              runFiber(toPop.pop(), true).addObserver(check(index, true));
              index++;
            };
            processingFiber.addObserver(check(index, false));
            index++;
            for (let i = 0; i < concurrency; i++) {
              next();
            }
          });
        },
        onSuccess: () => forEachSequential(joinOrder, (f2) => f2.inheritAll)
      })));
    })));
    forEachParN = (self, n, f, batching) => suspend(() => {
      const as3 = fromIterable(self);
      const array3 = new Array(as3.length);
      const fn2 = (a, i) => map8(f(a, i), (b) => array3[i] = b);
      return zipRight(forEachConcurrentDiscard(as3, fn2, batching, false, n), succeed(array3));
    });
    forkDaemon = (self) => forkWithScopeOverride(self, globalScope);
    unsafeFork2 = (effect, parentFiber, parentRuntimeFlags, overrideScope = null) => {
      const childFiber = unsafeMakeChildFiber(effect, parentFiber, parentRuntimeFlags, overrideScope);
      childFiber.resume(effect);
      return childFiber;
    };
    unsafeForkUnstarted = (effect, parentFiber, parentRuntimeFlags, overrideScope = null) => {
      const childFiber = unsafeMakeChildFiber(effect, parentFiber, parentRuntimeFlags, overrideScope);
      return childFiber;
    };
    unsafeMakeChildFiber = (effect, parentFiber, parentRuntimeFlags, overrideScope = null) => {
      const childId = unsafeMake2();
      const parentFiberRefs = parentFiber.getFiberRefs();
      const childFiberRefs = forkAs(parentFiberRefs, childId);
      const childFiber = new FiberRuntime(childId, childFiberRefs, parentRuntimeFlags);
      const childContext = getOrDefault(childFiberRefs, currentContext);
      const supervisor = childFiber.currentSupervisor;
      supervisor.onStart(childContext, effect, some2(parentFiber), childFiber);
      childFiber.addObserver((exit3) => supervisor.onEnd(exit3, childFiber));
      const parentScope = overrideScope !== null ? overrideScope : pipe(parentFiber.getFiberRef(currentForkScopeOverride), getOrElse(() => parentFiber.scope()));
      parentScope.add(parentRuntimeFlags, childFiber);
      return childFiber;
    };
    forkWithScopeOverride = (self, scopeOverride) => withFiberRuntime((parentFiber, parentStatus) => succeed(unsafeFork2(self, parentFiber, parentStatus.runtimeFlags, scopeOverride)));
    scopeUnsafeAddFinalizer = (scope, fin) => {
      if (scope.state._tag === "Open") {
        scope.state.finalizers.set({}, fin);
      }
    };
    ScopeImplProto = {
      [ScopeTypeId]: ScopeTypeId,
      [CloseableScopeTypeId]: CloseableScopeTypeId,
      pipe() {
        return pipeArguments(this, arguments);
      },
      fork(strategy) {
        return sync(() => {
          const newScope = scopeUnsafeMake(strategy);
          if (this.state._tag === "Closed") {
            newScope.state = this.state;
            return newScope;
          }
          const key = {};
          const fin = (exit3) => newScope.close(exit3);
          this.state.finalizers.set(key, fin);
          scopeUnsafeAddFinalizer(newScope, (_) => sync(() => {
            if (this.state._tag === "Open") {
              this.state.finalizers.delete(key);
            }
          }));
          return newScope;
        });
      },
      close(exit3) {
        return suspend(() => {
          if (this.state._tag === "Closed") {
            return void_;
          }
          const finalizers = Array.from(this.state.finalizers.values()).reverse();
          this.state = {
            _tag: "Closed",
            exit: exit3
          };
          if (finalizers.length === 0) {
            return void_;
          }
          return isSequential(this.strategy) ? pipe(forEachSequential(finalizers, (fin) => exit(fin(exit3))), flatMap6((results) => pipe(exitCollectAll(results), map(exitAsVoid), getOrElse(() => exitVoid)))) : isParallel(this.strategy) ? pipe(forEachParUnbounded(finalizers, (fin) => exit(fin(exit3)), false), flatMap6((results) => pipe(exitCollectAll(results, {
            parallel: true
          }), map(exitAsVoid), getOrElse(() => exitVoid)))) : pipe(forEachParN(finalizers, this.strategy.parallelism, (fin) => exit(fin(exit3)), false), flatMap6((results) => pipe(exitCollectAll(results, {
            parallel: true
          }), map(exitAsVoid), getOrElse(() => exitVoid))));
        });
      },
      addFinalizer(fin) {
        return suspend(() => {
          if (this.state._tag === "Closed") {
            return fin(this.state.exit);
          }
          this.state.finalizers.set({}, fin);
          return void_;
        });
      }
    };
    scopeUnsafeMake = (strategy = sequential2) => {
      const scope = Object.create(ScopeImplProto);
      scope.strategy = strategy;
      scope.state = {
        _tag: "Open",
        finalizers: /* @__PURE__ */ new Map()
      };
      return scope;
    };
    fiberRefUnsafeMakeSupervisor = (initial) => fiberRefUnsafeMakePatch(initial, {
      differ: differ2,
      fork: empty22
    });
    currentRuntimeFlags = /* @__PURE__ */ fiberRefUnsafeMakeRuntimeFlags(none5);
    currentSupervisor = /* @__PURE__ */ fiberRefUnsafeMakeSupervisor(none7);
    ensuring = /* @__PURE__ */ dual(2, (self, finalizer) => uninterruptibleMask((restore) => matchCauseEffect(restore(self), {
      onFailure: (cause1) => matchCauseEffect(finalizer, {
        onFailure: (cause2) => failCause(sequential(cause1, cause2)),
        onSuccess: () => failCause(cause1)
      }),
      onSuccess: (a) => as(finalizer, a)
    })));
    invokeWithInterrupt = (self, entries2, onInterrupt2) => fiberIdWith((id) => ensuring(flatMap6(forkDaemon(interruptible2(self)), (processing) => async_((cb) => {
      const counts = entries2.map((_) => _.listeners.count);
      const checkDone = () => {
        if (counts.every((count) => count === 0)) {
          if (entries2.every((_) => {
            if (_.result.state.current._tag === "Pending") {
              return true;
            } else if (_.result.state.current._tag === "Done" && exitIsExit(_.result.state.current.effect) && _.result.state.current.effect._tag === "Failure" && isInterrupted(_.result.state.current.effect.cause)) {
              return true;
            } else {
              return false;
            }
          })) {
            cleanup.forEach((f) => f());
            onInterrupt2?.();
            cb(interruptFiber(processing));
          }
        }
      };
      processing.addObserver((exit3) => {
        cleanup.forEach((f) => f());
        cb(exit3);
      });
      const cleanup = entries2.map((r, i) => {
        const observer = (count) => {
          counts[i] = count;
          checkDone();
        };
        r.listeners.addObserver(observer);
        return () => r.listeners.removeObserver(observer);
      });
      checkDone();
      return sync(() => {
        cleanup.forEach((f) => f());
      });
    })), suspend(() => {
      const residual = entries2.flatMap((entry) => {
        if (!entry.state.completed) {
          return [entry];
        }
        return [];
      });
      return forEachSequentialDiscard(residual, (entry) => complete(entry.request, exitInterrupt(id)));
    })));
  }
});

// node_modules/effect/dist/esm/Scope.js
var close, fork;
var init_Scope = __esm({
  "node_modules/effect/dist/esm/Scope.js"() {
    init_core();
    close = scopeClose;
    fork = scopeFork;
  }
});

// node_modules/effect/dist/esm/internal/runtime.js
var makeDual, unsafeFork3, FiberFailureId, FiberFailureCauseId, FiberFailureImpl, fiberFailure, fastPath, unsafeRunPromise, unsafeRunPromiseExit, RuntimeImpl, make29, defaultRuntimeFlags, defaultRuntime, unsafeRunPromiseEffect;
var init_runtime = __esm({
  "node_modules/effect/dist/esm/internal/runtime.js"() {
    init_Context();
    init_Equal();
    init_FiberId();
    init_FiberRefs();
    init_Inspectable();
    init_Option();
    init_Pipeable();
    init_Scheduler();
    init_Scope();
    init_cause2();
    init_core();
    init_executionStrategy();
    init_fiberRuntime();
    init_fiberScope();
    init_effect();
    init_runtimeFlags();
    init_stackTraceLimit();
    init_supervisor();
    makeDual = (f) => function() {
      if (arguments.length === 1) {
        const runtime3 = arguments[0];
        return (effect, ...args2) => f(runtime3, effect, ...args2);
      }
      return f.apply(this, arguments);
    };
    unsafeFork3 = /* @__PURE__ */ makeDual((runtime3, self, options) => {
      const fiberId2 = unsafeMake2();
      const fiberRefUpdates = [[currentContext, [[fiberId2, runtime3.context]]]];
      if (options?.scheduler) {
        fiberRefUpdates.push([currentScheduler, [[fiberId2, options.scheduler]]]);
      }
      let fiberRefs3 = updateManyAs2(runtime3.fiberRefs, {
        entries: fiberRefUpdates,
        forkAs: fiberId2
      });
      if (options?.updateRefs) {
        fiberRefs3 = options.updateRefs(fiberRefs3, fiberId2);
      }
      const fiberRuntime = new FiberRuntime(fiberId2, fiberRefs3, runtime3.runtimeFlags);
      let effect = self;
      if (options?.scope) {
        effect = flatMap6(fork(options.scope, sequential2), (closeableScope) => zipRight(scopeAddFinalizer(closeableScope, fiberIdWith((id) => equals(id, fiberRuntime.id()) ? void_ : interruptAsFiber(fiberRuntime, id))), onExit(self, (exit3) => close(closeableScope, exit3))));
      }
      const supervisor = fiberRuntime.currentSupervisor;
      if (supervisor !== none7) {
        supervisor.onStart(runtime3.context, effect, none2(), fiberRuntime);
        fiberRuntime.addObserver((exit3) => supervisor.onEnd(exit3, fiberRuntime));
      }
      globalScope.add(runtime3.runtimeFlags, fiberRuntime);
      if (options?.immediate === false) {
        fiberRuntime.resume(effect);
      } else {
        fiberRuntime.start(effect);
      }
      return fiberRuntime;
    });
    FiberFailureId = /* @__PURE__ */ Symbol.for("effect/Runtime/FiberFailure");
    FiberFailureCauseId = /* @__PURE__ */ Symbol.for("effect/Runtime/FiberFailure/Cause");
    FiberFailureImpl = class extends Error {
      [FiberFailureId];
      [FiberFailureCauseId];
      constructor(cause2) {
        const head4 = prettyErrors(cause2)[0];
        super(head4?.message || "An error has occurred");
        this[FiberFailureId] = FiberFailureId;
        this[FiberFailureCauseId] = cause2;
        this.name = head4 ? `(FiberFailure) ${head4.name}` : "FiberFailure";
        if (head4?.stack) {
          this.stack = head4.stack;
        }
      }
      toJSON() {
        return {
          _id: "FiberFailure",
          cause: this[FiberFailureCauseId].toJSON()
        };
      }
      toString() {
        return "(FiberFailure) " + pretty(this[FiberFailureCauseId], {
          renderErrorCause: true
        });
      }
      [NodeInspectSymbol]() {
        return this.toString();
      }
    };
    fiberFailure = (cause2) => {
      const limit = getStackTraceLimit();
      setStackTraceLimit(0);
      const error = new FiberFailureImpl(cause2);
      setStackTraceLimit(limit);
      return error;
    };
    fastPath = (effect) => {
      const op = effect;
      switch (op._op) {
        case "Failure":
        case "Success": {
          return op;
        }
        case "Left": {
          return exitFail(op.left);
        }
        case "Right": {
          return exitSucceed(op.right);
        }
        case "Some": {
          return exitSucceed(op.value);
        }
        case "None": {
          return exitFail(new NoSuchElementException());
        }
      }
    };
    unsafeRunPromise = /* @__PURE__ */ makeDual((runtime3, effect, options) => unsafeRunPromiseExit(runtime3, effect, options).then((result) => {
      switch (result._tag) {
        case OP_SUCCESS: {
          return result.effect_instruction_i0;
        }
        case OP_FAILURE: {
          throw fiberFailure(result.effect_instruction_i0);
        }
      }
    }));
    unsafeRunPromiseExit = /* @__PURE__ */ makeDual((runtime3, effect, options) => new Promise((resolve) => {
      const op = fastPath(effect);
      if (op) {
        resolve(op);
      }
      const fiber = unsafeFork3(runtime3)(effect);
      fiber.addObserver((exit3) => {
        resolve(exit3);
      });
      if (options?.signal !== void 0) {
        if (options.signal.aborted) {
          fiber.unsafeInterruptAsFork(fiber.id());
        } else {
          const signal = options.signal;
          const onAbort = () => {
            fiber.unsafeInterruptAsFork(fiber.id());
          };
          signal.addEventListener("abort", onAbort, {
            once: true
          });
          fiber.addObserver(() => {
            signal.removeEventListener("abort", onAbort);
          });
        }
      }
    }));
    RuntimeImpl = class {
      context;
      runtimeFlags;
      fiberRefs;
      constructor(context2, runtimeFlags2, fiberRefs3) {
        this.context = context2;
        this.runtimeFlags = runtimeFlags2;
        this.fiberRefs = fiberRefs3;
      }
      pipe() {
        return pipeArguments(this, arguments);
      }
    };
    make29 = (options) => new RuntimeImpl(options.context, options.runtimeFlags, options.fiberRefs);
    defaultRuntimeFlags = /* @__PURE__ */ make15(Interruption, CooperativeYielding, RuntimeMetrics);
    defaultRuntime = /* @__PURE__ */ make29({
      context: /* @__PURE__ */ empty8(),
      runtimeFlags: defaultRuntimeFlags,
      fiberRefs: /* @__PURE__ */ empty17()
    });
    unsafeRunPromiseEffect = /* @__PURE__ */ unsafeRunPromise(defaultRuntime);
  }
});

// node_modules/effect/dist/esm/Effect.js
function defineLength(length, fn2) {
  return Object.defineProperty(fn2, "length", {
    value: length,
    configurable: true
  });
}
function fnApply(options) {
  let effect;
  let fnError = void 0;
  if (isGeneratorFunction(options.body)) {
    effect = fromIterator(() => options.body.apply(options.self, options.args));
  } else {
    try {
      const result = options.body.apply(options.self, options.args);
      if (isEffect(result)) {
        effect = result;
      } else {
        let first2 = true;
        effect = fromIterator(() => {
          if (first2) {
            first2 = false;
            return result;
          }
          return options.body.apply(options.self, options.args);
        });
      }
    } catch (error) {
      fnError = error;
      effect = die3(error);
    }
  }
  if (options.pipeables.length > 0) {
    try {
      for (const x of options.pipeables) {
        effect = x(effect, ...options.args);
      }
    } catch (error) {
      effect = fnError ? failCause3(sequential(die(fnError), die(error))) : die3(error);
    }
  }
  let cache = false;
  const captureStackTrace = () => {
    if (cache !== false) {
      return cache;
    }
    if (options.errorCall.stack) {
      const stackDef = options.errorDef.stack.trim().split("\n");
      const stackCall = options.errorCall.stack.trim().split("\n");
      let endStackDef = stackDef.slice(2).join("\n").trim();
      if (!endStackDef.includes(`(`)) {
        endStackDef = endStackDef.replace(/at (.*)/, "at ($1)");
      }
      let endStackCall = stackCall.slice(2).join("\n").trim();
      if (!endStackCall.includes(`(`)) {
        endStackCall = endStackCall.replace(/at (.*)/, "at ($1)");
      }
      cache = `${endStackDef}
${endStackCall}`;
      return cache;
    }
  };
  const opts = options.spanOptions && "captureStackTrace" in options.spanOptions ? options.spanOptions : {
    captureStackTrace,
    ...options.spanOptions
  };
  return withSpan2(effect, options.spanName, opts);
}
var failCause3, die3, tryPromise2, either3, runPromise, withSpan2, fn;
var init_Effect = __esm({
  "node_modules/effect/dist/esm/Effect.js"() {
    init_cause2();
    init_core_effect();
    init_core();
    init_runtime();
    init_stackTraceLimit();
    init_tracer();
    init_Utils();
    failCause3 = failCause;
    die3 = die2;
    tryPromise2 = tryPromise;
    either3 = either2;
    runPromise = unsafeRunPromiseEffect;
    withSpan2 = withSpan;
    fn = function(nameOrBody, ...pipeables) {
      const limit = getStackTraceLimit();
      setStackTraceLimit(2);
      const errorDef = new Error();
      setStackTraceLimit(limit);
      if (typeof nameOrBody !== "string") {
        return defineLength(nameOrBody.length, function(...args2) {
          const limit2 = getStackTraceLimit();
          setStackTraceLimit(2);
          const errorCall = new Error();
          setStackTraceLimit(limit2);
          return fnApply({
            self: this,
            body: nameOrBody,
            args: args2,
            pipeables,
            spanName: "<anonymous>",
            spanOptions: {
              context: DisablePropagation.context(true)
            },
            errorDef,
            errorCall
          });
        });
      }
      const name = nameOrBody;
      const options = pipeables[0];
      return (body, ...pipeables2) => defineLength(body.length, {
        [name](...args2) {
          const limit2 = getStackTraceLimit();
          setStackTraceLimit(2);
          const errorCall = new Error();
          setStackTraceLimit(limit2);
          return fnApply({
            self: this,
            body,
            args: args2,
            pipeables: pipeables2,
            spanName: name,
            spanOptions: options,
            errorDef,
            errorCall
          });
        }
      }[name]);
    };
  }
});

// src/permissions/ShellExecution.ts
var none9, because, shells, runners, python, node, perl, ruby, simple, interpreters, interpreterOf, shellInvocation, interpreterInvocation, awkInvocation, awkProgram, sedScript, sedScripts, findExecutors, executionOf;
var init_ShellExecution = __esm({
  "src/permissions/ShellExecution.ts"() {
    "use strict";
    init_ShellCommand();
    none9 = { reasons: [], runs: [] };
    because = (kind, message) => ({ reasons: [{ kind, message }], runs: [] });
    shells = /* @__PURE__ */ new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash"]);
    runners = /* @__PURE__ */ new Set([
      "su",
      "runuser",
      "sg",
      "pkexec",
      "script",
      "expect",
      "parallel",
      "unshare",
      "nsenter",
      "chrt",
      "firejail",
      "bwrap",
      "systemd-run",
      "strace",
      "ltrace",
      "valgrind",
      "unbuffer",
      "rlwrap",
      "entr",
      "faketime",
      "proxychains",
      "proxychains4",
      "torsocks",
      "catchsegv",
      "daemonize",
      "start-stop-daemon",
      "tmux",
      "screen",
      "dtach",
      "fc",
      "coproc"
    ]);
    python = { evalShort: "c", evalLong: [], valueShort: "WXQm", valueLong: ["check-hash-based-pycs"], noScript: ["-m", "-V", "--version", "-h", "--help"] };
    node = {
      evalShort: "ep",
      evalLong: ["--eval", "--print"],
      valueShort: "rC",
      valueLong: ["--require", "--import", "--loader", "--experimental-loader", "--conditions", "--input-type", "--env-file", "--title", "--stack-size"],
      noScript: ["-v", "--version", "-h", "--help", "--test"]
    };
    perl = { evalShort: "eE", evalLong: [], valueShort: "", valueLong: [], noScript: ["-v", "-V", "--version", "-h", "--help"] };
    ruby = { evalShort: "e", evalLong: [], valueShort: "Ir", valueLong: [], noScript: ["-v", "--version", "-h", "--help"] };
    simple = (evalShort) => ({ evalShort, evalLong: [], valueShort: "", valueLong: [], noScript: ["-v", "--version", "-h", "--help"] });
    interpreters = {
      node,
      nodejs: node,
      bun: { ...node, evalLong: ["--eval", "--print"] },
      perl,
      ruby,
      php: { evalShort: "rBRE", evalLong: [], valueShort: "cdf", valueLong: [], noScript: ["-v", "--version", "-h", "--help", "-f", "-l", "-m", "-i"] },
      lua: { ...simple("e"), valueShort: "l" },
      luajit: { ...simple("e"), valueShort: "l" },
      Rscript: { ...simple("e"), evalLong: ["--expr"] },
      R: { ...simple("e"), noScript: ["--version", "-h", "--help"] },
      julia: { ...simple("eE"), evalLong: ["--eval", "--print"] },
      osascript: simple("e"),
      pwsh: { evalShort: "c", evalLong: ["-Command", "-command", "-EncodedCommand", "-encodedcommand", "-c"], valueShort: "", valueLong: [], noScript: ["-v", "-Version", "--version"] },
      powershell: { evalShort: "c", evalLong: ["-Command", "-command", "-EncodedCommand", "-encodedcommand", "-c"], valueShort: "", valueLong: [], noScript: ["-v", "-Version", "--version"] },
      tclsh: simple(""),
      wish: simple(""),
      irb: simple("")
    };
    interpreterOf = (name) => /^(python|pypy)[0-9.]*$/.test(name) ? python : Object.hasOwn(interpreters, name) ? interpreters[name] : void 0;
    shellInvocation = (name, args2) => {
      for (let index = 0; index < args2.length; index++) {
        const word = args2[index];
        if (word === void 0) break;
        const text = literal(word);
        if (text === void 0) return because("ShellString", `\`${name}\` is given a word built at run time where an option or its script may stand.`);
        if (text === "--" || text === "-") {
          return index + 1 < args2.length ? none9 : because("ShellFromInput", `\`${name}\` reads its commands from standard input, which is not analysed.`);
        }
        if (text.startsWith("--")) {
          if (text === "--command" || text === "--init-command" || text.startsWith("--command=") || text.startsWith("--init-command=")) {
            return because("ShellString", `\`${name} ${text}\` runs a string of shell code, which is not analysed.`);
          }
          if (text === "--rcfile" || text === "--init-file") index++;
          continue;
        }
        if (text.startsWith("-") || text.startsWith("+")) {
          const letters = text.slice(1);
          if (letters.includes("c") || name === "fish" && letters.includes("C")) {
            return because("ShellString", `\`${name} ${text}\` runs a string of shell code, which is not analysed.`);
          }
          if (letters.includes("s") || letters.includes("i")) {
            return because("ShellFromInput", `\`${name} ${text}\` reads its commands from standard input, which is not analysed.`);
          }
          if (/[oO]/.test(letters)) index++;
          continue;
        }
        return none9;
      }
      return because("ShellFromInput", `\`${name}\` with no script reads its commands from standard input, which is not analysed.`);
    };
    interpreterInvocation = (name, interpreter, args2) => {
      for (let index = 0; index < args2.length; index++) {
        const word = args2[index];
        if (word === void 0) break;
        const text = literal(word);
        if (text === void 0) return because("InterpreterString", `\`${name}\` is given a word built at run time where an option or its program may stand.`);
        if (interpreter.noScript.includes(text) || interpreter.noScript.some((option2) => option2.startsWith("-") && option2.length === 2 && text.startsWith(option2) && option2 === "-m")) {
          return none9;
        }
        if (text === "--") return index + 1 < args2.length ? none9 : because("ShellFromInput", `\`${name}\` reads its program from standard input, which is not analysed.`);
        if (text === "-") return because("ShellFromInput", `\`${name} -\` reads its program from standard input, which is not analysed.`);
        const long = text.split("=", 1)[0] ?? text;
        if (interpreter.evalLong.includes(long)) return because("InterpreterString", `\`${name} ${long}\` runs program text given as an argument, which is not analysed.`);
        if (text.startsWith("--")) {
          if (interpreter.valueLong.includes(text)) index++;
          continue;
        }
        if (text.startsWith("-")) {
          const letters = text.slice(1);
          for (let position = 0; position < letters.length; position++) {
            const letter = letters.charAt(position);
            if (interpreter.evalShort.includes(letter)) {
              return because("InterpreterString", `\`${name} ${text}\` runs program text given as an argument, which is not analysed.`);
            }
            if (interpreter.valueShort.includes(letter)) {
              if (position === letters.length - 1) index++;
              break;
            }
          }
          continue;
        }
        return none9;
      }
      return because("ShellFromInput", `\`${name}\` with no program file reads its program from standard input, which is not analysed.`);
    };
    awkInvocation = (name, args2) => {
      for (let index = 0; index < args2.length; index++) {
        const word = args2[index];
        if (word === void 0) break;
        const text = literal(word);
        if (text === void 0) return because("InterpreterString", `\`${name}\` is given a word built at run time where its program may stand.`);
        if (text === "--") {
          const program = args2[index + 1];
          return program === void 0 ? none9 : awkProgram(name, program);
        }
        if (/^-[Fv]$/.test(text) || text === "--field-separator" || text === "--assign") {
          index++;
          continue;
        }
        if (/^-[fEe]$/.test(text) || text === "--file" || text === "--exec" || text === "--source" || text === "--include" || text === "-i" || text === "--load" || text === "-l") {
          const value = args2[index + 1];
          if ((text === "-e" || text === "--source") && value !== void 0) return awkProgram(name, value);
          return because("InterpreterString", `\`${name} ${text}\` runs program text this analysis does not read.`);
        }
        if (text.startsWith("-")) continue;
        return awkProgram(name, word);
      }
      return none9;
    };
    awkProgram = (name, word) => {
      const program = literal(word);
      if (program === void 0) return because("InterpreterString", `\`${name}\`'s program is built at run time.`);
      return /\bsystem\s*\(|\|/.test(program) ? because("InterpreterString", `\`${name}\`'s program runs commands (system() or a pipe), which are not analysed.`) : none9;
    };
    sedScript = (script) => {
      let verdict = "prints";
      const worse = (next) => {
        const rank = { prints: 0, writes: 1, unknown: 2, executes: 3 };
        if (rank[next] > rank[verdict]) verdict = next;
      };
      let index = 0;
      const at = () => script.charAt(index);
      const skipSpace = () => {
        while (index < script.length && /[\s;]/.test(at())) index++;
      };
      const delimited = (delimiter) => {
        while (index < script.length) {
          const char = at();
          if (char === "\\") {
            index += 2;
            continue;
          }
          if (char === "\n" && delimiter !== "\n") return false;
          index++;
          if (char === delimiter) return true;
        }
        return false;
      };
      const address = () => {
        const char = at();
        if (/[0-9]/.test(char)) {
          while (/[0-9~]/.test(at())) index++;
          return true;
        }
        if (char === "$") {
          index++;
          return true;
        }
        if (char === "/" || char === "\\") {
          const delimiter = char === "\\" ? script.charAt(index + 1) : "/";
          index += char === "\\" ? 2 : 1;
          if (!delimited(delimiter)) return false;
          while (/[IM]/.test(at())) index++;
          return true;
        }
        return true;
      };
      while (index < script.length) {
        skipSpace();
        if (index >= script.length) break;
        if (at() === "#") {
          while (index < script.length && at() !== "\n") index++;
          continue;
        }
        if (!address()) return "unknown";
        if (at() === ",") {
          index++;
          if (at() === "+" || at() === "~") index++;
          if (!address()) return "unknown";
        }
        while (at() === " ") index++;
        if (at() === "!") index++;
        while (at() === " ") index++;
        const command = at();
        index++;
        switch (command) {
          case "{":
          case "}":
          case "=":
          case "d":
          case "D":
          case "g":
          case "G":
          case "h":
          case "H":
          case "l":
          case "n":
          case "N":
          case "p":
          case "P":
          case "x":
          case "z":
          case "F":
            break;
          case "q":
          case "Q":
          case "L":
            while (/[0-9 ]/.test(at())) index++;
            break;
          case ":":
          case "b":
          case "t":
          case "T":
            while (index < script.length && !/[;\n]/.test(at())) index++;
            break;
          case "a":
          case "i":
          case "c":
            while (index < script.length && at() !== "\n") index += at() === "\\" ? 2 : 1;
            break;
          case "y": {
            const delimiter = at();
            index++;
            if (!delimited(delimiter) || !delimited(delimiter)) return "unknown";
            break;
          }
          case "s": {
            const delimiter = at();
            if (delimiter === "" || delimiter === "\n" || delimiter === "\\") return "unknown";
            index++;
            if (!delimited(delimiter) || !delimited(delimiter)) return "unknown";
            while (index < script.length && !/[;\n}]/.test(at())) {
              const flag = at();
              if (flag === "e") worse("executes");
              else if (flag === "w") {
                worse("writes");
                index = script.length;
              } else if (!/[gpiImM0-9 ]/.test(flag)) return "unknown";
              index++;
            }
            break;
          }
          case "e":
            worse("executes");
            while (index < script.length && at() !== "\n") index++;
            break;
          case "w":
          case "W":
            worse("writes");
            while (index < script.length && at() !== "\n") index++;
            break;
          case "r":
          case "R":
            worse("unknown");
            while (index < script.length && at() !== "\n") index++;
            break;
          default:
            return "unknown";
        }
      }
      return verdict;
    };
    sedScripts = (args2) => {
      const scripts = [];
      let firstOperand;
      for (let index = 0; index < args2.length; index++) {
        const word = args2[index];
        if (word === void 0) break;
        const text = literal(word);
        if (text === void 0) {
          if (firstOperand === void 0 && scripts.length === 0) return void 0;
          continue;
        }
        if (text === "-e" || text === "--expression") {
          const value = args2[index + 1];
          const script = value === void 0 ? void 0 : literal(value);
          if (script === void 0) return void 0;
          scripts.push(script);
          index++;
          continue;
        }
        if (text.startsWith("--expression=")) {
          scripts.push(text.slice("--expression=".length));
          continue;
        }
        if (/^-[a-zA-Z]*e./.test(text) && !text.startsWith("--")) {
          const script = text.slice(text.indexOf("e") + 1);
          scripts.push(script);
          continue;
        }
        if (text === "-f" || text.startsWith("--file") || /^-[a-zA-Z]*f/.test(text)) return void 0;
        if (text === "-l" || text === "--line-length") {
          index++;
          continue;
        }
        if (text.startsWith("-") && text !== "-") continue;
        if (firstOperand === void 0) firstOperand = text;
      }
      if (scripts.length === 0 && firstOperand !== void 0) scripts.push(firstOperand);
      return scripts;
    };
    findExecutors = /* @__PURE__ */ new Set(["-exec", "-execdir", "-ok", "-okdir"]);
    executionOf = (path, args2) => {
      const name = path.includes("/") ? path.slice(path.lastIndexOf("/") + 1) : path;
      switch (name) {
        case "eval":
          return because("Eval", "`eval` runs a string as shell code, which is not analysed.");
        case "source":
        case ".":
          return because("Source", `\`${name}\` runs a file's commands in this shell, which are not analysed.`);
        case "trap": {
          const first2 = args2[0];
          const text = first2 === void 0 ? void 0 : literal(first2);
          if (first2 === void 0 || text === "-p" || text === "-l" || text === "-" || text === "" || text !== void 0 && /^\d+$/.test(text)) return none9;
          return because("ShellString", "`trap` sets shell code to run later, which is not analysed.");
        }
        case "mapfile":
        case "readarray":
          return args2.some((word) => literal(word)?.startsWith("-C") === true || /^-[a-zA-Z]*C/.test(literal(word) ?? "")) ? because("ShellString", `\`${name} -C\` runs a callback, which is not analysed.`) : none9;
        case "awk":
        case "gawk":
        case "mawk":
        case "nawk":
          return awkInvocation(name, args2);
        case "sed":
        case "gsed": {
          const scripts = sedScripts(args2);
          if (scripts === void 0) return none9;
          return scripts.some((script) => sedScript(script) === "executes") ? because("InterpreterString", `\`${name}\`'s script runs commands (its \`e\` command or the \`e\` flag of \`s\`), which are not analysed.`) : none9;
        }
        case "sqlite3":
          return args2.some((word) => /^\s*\.(shell|system|sh)\b/m.test(word.value ?? ".shell")) ? because("InterpreterString", "`sqlite3` is given a dot-command that runs shell commands.") : none9;
        case "find": {
          const runs = [];
          for (let index = 0; index < args2.length; index++) {
            const text = literal(args2[index] ?? unknownWord(""));
            if (text === void 0 || !findExecutors.has(text)) continue;
            const start = index + 1;
            let end = start;
            while (end < args2.length) {
              const word = args2[end];
              const value = word === void 0 ? void 0 : literal(word);
              if (value === ";" || value === "+" && literal(args2[end - 1] ?? unknownWord("")) === "{}") break;
              end++;
            }
            const argv = args2.slice(start, end).map((word) => literal(word) === "{}" ? unknownWord("{}") : word);
            if (argv.length > 0) runs.push({ wrapperArgv: args2.slice(0, start), argv });
            index = end;
          }
          return { reasons: [], runs };
        }
      }
      if (shells.has(name)) return shellInvocation(name, args2);
      const interpreter = interpreterOf(name);
      if (interpreter !== void 0) return interpreterInvocation(name, interpreter, args2);
      if (runners.has(name)) return because("Unsupported", `\`${name}\` runs other commands in a way this analysis does not follow.`);
      return none9;
    };
  }
});

// src/permissions/ShellOptions.ts
var mayBeOption, unknown, resolveLong, parseOptions, optionValue;
var init_ShellOptions = __esm({
  "src/permissions/ShellOptions.ts"() {
    "use strict";
    init_ShellCommand();
    mayBeOption = (word) => word.value === void 0 || word.brace || word.value.startsWith("-") || word.glob && /^[*?[@!+]/.test(word.value);
    unknown = (word, why) => ({ _tag: "Unknown", word, why });
    resolveLong = (name, spec) => {
      const all2 = [
        ...(spec.longFlags ?? []).map((long) => ({ name: long, kind: "flag" })),
        ...(spec.longValues ?? []).map((long) => ({ name: long, kind: "value" })),
        ...(spec.longOptionalValues ?? []).map((long) => ({ name: long, kind: "optional" }))
      ];
      const exact = all2.find((option2) => option2.name === name);
      if (exact !== void 0) return { ...exact, abbreviated: false };
      if (spec.abbreviations === false) return void 0;
      const candidates = all2.filter((option2) => option2.name.startsWith(name));
      if (candidates.length === 1 && candidates[0] !== void 0) return { ...candidates[0], abbreviated: true };
      return candidates.length > 1 ? "ambiguous" : void 0;
    };
    parseOptions = (words, spec) => {
      const options = [];
      const operands = [];
      let firstOperand = words.length;
      let index = 0;
      let optionsEnded = false;
      while (index < words.length) {
        const word = words[index];
        if (word === void 0) break;
        const text = literal(word);
        if (optionsEnded) {
          operands.push(word);
          index++;
          continue;
        }
        if (text === void 0) {
          if (mayBeOption(word)) return unknown(word.source, "a word built at run time where an option may stand");
          if (spec.stopAtOperand === true) {
            firstOperand = index;
            operands.push(...words.slice(index));
            break;
          }
          operands.push(word);
          index++;
          continue;
        }
        if (text === "--") {
          optionsEnded = true;
          if (spec.stopAtOperand === true) {
            firstOperand = index + 1;
            operands.push(...words.slice(index + 1));
            break;
          }
          index++;
          continue;
        }
        if (text.startsWith("--") || spec.singleDashLong === true && text.startsWith("-") && text.length > 2) {
          const body = text.startsWith("--") ? text.slice(2) : text.slice(1);
          const equals3 = body.indexOf("=");
          const name = equals3 === -1 ? body : body.slice(0, equals3);
          const resolved = resolveLong(name, spec);
          if (resolved === "ambiguous") return unknown(text, "an ambiguous abbreviation");
          if (resolved === void 0) {
            if (spec.singleDashLong === true && !text.startsWith("--")) {
            } else {
              return unknown(text, "an option this check does not know");
            }
          } else {
            if (equals3 !== -1) {
              if (resolved.kind === "flag") return unknown(text, "a value given to an option that takes none");
              options.push({ name: resolved.name, value: body.slice(equals3 + 1), abbreviated: resolved.abbreviated });
              index++;
              continue;
            }
            if (resolved.kind === "value") {
              const value = words[index + 1];
              if (value === void 0) return unknown(text, "an option missing its value");
              options.push({ name: resolved.name, value, abbreviated: resolved.abbreviated });
              index += 2;
              continue;
            }
            options.push({ name: resolved.name, value: void 0, abbreviated: resolved.abbreviated });
            index++;
            continue;
          }
        }
        if (text.startsWith("-") && text.length > 1) {
          let position = 1;
          let consumedNext = false;
          while (position < text.length) {
            const letter = text.charAt(position);
            if (spec.shortFlags?.includes(letter) === true) {
              options.push({ name: letter, value: void 0, abbreviated: false });
              position++;
              continue;
            }
            if (spec.shortValues?.includes(letter) === true) {
              const attached = text.slice(position + 1);
              if (attached.length > 0) {
                options.push({ name: letter, value: attached, abbreviated: false });
              } else {
                const value = words[index + 1];
                if (value === void 0) return unknown(text, "an option missing its value");
                options.push({ name: letter, value, abbreviated: false });
                consumedNext = true;
              }
              break;
            }
            if (spec.shortOptionalValues?.includes(letter) === true) {
              const attached = text.slice(position + 1);
              options.push({ name: letter, value: attached.length > 0 ? attached : void 0, abbreviated: false });
              break;
            }
            return unknown(text, `an option this check does not know (-${letter})`);
          }
          index += consumedNext ? 2 : 1;
          continue;
        }
        if (spec.stopAtOperand === true) {
          firstOperand = index;
          operands.push(...words.slice(index));
          break;
        }
        operands.push(word);
        index++;
      }
      return { _tag: "Parsed", options, operands, firstOperand };
    };
    optionValue = (option2) => option2.value === void 0 ? void 0 : typeof option2.value === "string" ? option2.value : literal(option2.value);
  }
});

// src/permissions/ShellWrappers.ts
var has7, specs, wrapperNames, assignmentRe, unwrap;
var init_ShellWrappers = __esm({
  "src/permissions/ShellWrappers.ts"() {
    "use strict";
    init_ShellCommand();
    init_ShellOptions();
    has7 = (options, ...names) => options.some((option2) => names.includes(option2.name));
    specs = {
      env: {
        options: {
          shortFlags: "i0v",
          shortValues: "uCS",
          longFlags: ["ignore-environment", "null", "debug", "help", "version"],
          longValues: ["unset", "chdir", "split-string", "block-signal", "default-signal", "ignore-signal"],
          longOptionalValues: ["block-signal", "default-signal", "ignore-signal", "list-signal-handling"],
          stopAtOperand: true
        },
        transparent: true,
        special: (options) => has7(options, "S", "split-string") ? "shell" : void 0
      },
      sudo: {
        options: {
          shortFlags: "AbEHnPSiKklsBNv",
          shortValues: "CDghprtTUu",
          longFlags: [
            "askpass",
            "background",
            "bell",
            "preserve-env",
            "set-home",
            "login",
            "remove-timestamp",
            "reset-timestamp",
            "list",
            "non-interactive",
            "preserve-groups",
            "stdin",
            "shell",
            "validate",
            "help",
            "version"
          ],
          longValues: ["close-from", "chdir", "group", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user", "user"],
          stopAtOperand: true
        },
        transparent: false,
        special: (options) => has7(options, "s", "shell", "i", "login") ? "shell" : has7(options, "l", "list", "v", "validate", "k", "K", "remove-timestamp", "reset-timestamp", "help", "version") ? "itself" : void 0
      },
      doas: { options: { shortFlags: "Lns", shortValues: "Cu", stopAtOperand: true, abbreviations: false }, transparent: false, special: (options) => has7(options, "s") ? "shell" : has7(options, "L") ? "itself" : void 0 },
      nice: { options: { shortValues: "n", longValues: ["adjustment"], longFlags: ["help", "version"], stopAtOperand: true }, transparent: true },
      nohup: { options: { longFlags: ["help", "version"], stopAtOperand: true }, transparent: true },
      timeout: {
        options: { shortFlags: "fpv", shortValues: "ks", longFlags: ["foreground", "preserve-status", "verbose", "help", "version"], longValues: ["kill-after", "signal"], stopAtOperand: true },
        leadingOperands: 1,
        transparent: true
      },
      xargs: {
        options: {
          shortFlags: "0oprtx",
          shortValues: "adEILnPs",
          shortOptionalValues: "eil",
          longFlags: ["null", "open-tty", "interactive", "no-run-if-empty", "verbose", "exit", "show-limits", "help", "version"],
          longValues: ["arg-file", "delimiter", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"],
          longOptionalValues: ["eof", "replace", "max-lines"],
          stopAtOperand: true
        },
        transparent: true,
        appends: true,
        defaultCommand: "echo"
      },
      watch: {
        options: {
          shortFlags: "bcCdeghprtwxq",
          shortValues: "n",
          longFlags: ["beep", "color", "no-color", "differences", "errexit", "chgexit", "no-title", "exec", "precise", "no-wrap", "no-linewrap", "help", "version"],
          longValues: ["interval", "equexit", "shotsdir"],
          longOptionalValues: ["differences"],
          stopAtOperand: true
        },
        transparent: true,
        // Without --exec, watch joins its words and hands them to `sh -c`.
        special: (options) => has7(options, "x", "exec") ? void 0 : "shell"
      },
      command: {
        options: { shortFlags: "pvV", stopAtOperand: true, abbreviations: false },
        transparent: true,
        special: (options) => has7(options, "v", "V") ? "itself" : void 0
      },
      builtin: { options: { stopAtOperand: true, abbreviations: false }, transparent: true },
      exec: { options: { shortFlags: "cl", shortValues: "a", stopAtOperand: true, abbreviations: false }, transparent: true },
      setsid: { options: { shortFlags: "cfw", longFlags: ["ctty", "fork", "wait", "help", "version"], stopAtOperand: true }, transparent: true },
      stdbuf: { options: { shortValues: "ioe", longValues: ["input", "output", "error"], longFlags: ["help", "version"], stopAtOperand: true }, transparent: true },
      time: { options: { shortFlags: "apqv", shortValues: "fo", longFlags: ["append", "portability", "quiet", "verbose", "help", "version"], longValues: ["format", "output"], stopAtOperand: true }, transparent: true },
      ionice: {
        options: { shortFlags: "tuh", shortValues: "cnPp", longFlags: ["ignore", "help", "version"], longValues: ["class", "classdata", "pgid", "pid", "uid"], stopAtOperand: true },
        transparent: true,
        special: (options) => has7(options, "p", "P", "u", "pid", "pgid", "uid") ? "itself" : void 0
      },
      chroot: { options: { longFlags: ["skip-chdir", "help", "version"], longValues: ["groups", "userspec"], stopAtOperand: true }, leadingOperands: 1, transparent: false },
      taskset: {
        options: { shortFlags: "acp", longFlags: ["all-tasks", "cpu-list", "pid", "help", "version"], stopAtOperand: true },
        leadingOperands: 1,
        transparent: true,
        special: (options) => has7(options, "p", "pid") ? "itself" : void 0
      },
      flock: {
        options: {
          shortFlags: "sxunoFhV",
          shortValues: "wEc",
          longFlags: ["shared", "exclusive", "unlock", "nonblock", "close", "no-fork", "verbose", "help", "version"],
          longValues: ["timeout", "conflict-exit-code", "command"],
          stopAtOperand: true
        },
        leadingOperands: 1,
        transparent: true,
        special: (options) => has7(options, "c", "command") ? "shell" : void 0
      },
      busybox: { options: { stopAtOperand: true, abbreviations: false }, transparent: true }
    };
    wrapperNames = new Set(Object.keys(specs));
    assignmentRe = /^([A-Za-z_][A-Za-z0-9_]*)=/s;
    unwrap = (argv) => {
      const first2 = argv[0];
      const name = first2 === void 0 ? void 0 : literal(first2);
      if (name === void 0) return void 0;
      const spec = specs[name];
      if (spec === void 0) return void 0;
      const rest = argv.slice(1);
      const parsed = parseOptions(rest, spec.options);
      if (parsed._tag === "Unknown") {
        return { _tag: "Unanalysable", kind: "UnknownWrapperOption", message: `\`${name}\` is given ${parsed.why} (${parsed.word}): the command it runs cannot be told.` };
      }
      const special = spec.special?.(parsed.options);
      if (special === "shell") {
        return parsed.firstOperand < rest.length || name === "env" || name === "flock" ? { _tag: "Unanalysable", kind: "ShellString", message: `\`${name}\` runs its command through a shell string, which is not analysed.` } : { _tag: "Itself" };
      }
      if (special === "itself") return { _tag: "Itself" };
      let commandStart = 1 + parsed.firstOperand;
      const assignments = [];
      if (name === "env") {
        for (const option2 of parsed.options) {
          if (option2.name === "u" || option2.name === "unset") {
            const unset = optionValue(option2);
            if (unset === void 0) return { _tag: "Unanalysable", kind: "UnknownWrapperOption", message: "`env -u` is given a name built at run time." };
          }
        }
        while (commandStart < argv.length) {
          const word = argv[commandStart];
          const match7 = word?.value === void 0 ? null : assignmentRe.exec(word.value);
          if (word === void 0 || match7 === null || match7[1] === void 0) break;
          assignments.push({ name: match7[1], value: { ...word, source: word.source, value: word.value?.slice(match7[0].length) } });
          commandStart++;
        }
      }
      commandStart += spec.leadingOperands ?? 0;
      if (commandStart >= argv.length) {
        if (spec.defaultCommand === void 0) return { _tag: "Itself" };
        const command2 = { source: spec.defaultCommand, value: spec.defaultCommand, glob: false, brace: false, tilde: false };
        return { _tag: "Runs", wrapperArgv: argv, argv: [command2, unknownWord(`<${name} input>`)], assignments, transparent: spec.transparent };
      }
      const command = argv.slice(commandStart);
      return {
        _tag: "Runs",
        wrapperArgv: argv.slice(0, commandStart),
        argv: spec.appends === true ? [...command, unknownWord(`<${name} input>`)] : command,
        assignments,
        transparent: spec.transparent
      };
    };
  }
});

// src/permissions/ShellSyntax.ts
var ShellSyntax_exports = {};
__export(ShellSyntax_exports, {
  analyseSource: () => analyseSource,
  ansiC: () => ansiC,
  loadParser: () => loadParser,
  resolveWord: () => resolveWord
});
import { join as join3 } from "node:path";
import { Language, Parser } from "web-tree-sitter";
var wasmPath, loading, loadParser, maxDepth, hiddenCharacterRe, analyseSource, hasSplitWord, firstError, Walker, isRedirect, describe, operatorOf, descriptorOf, discardTargets, fileRedirect, assignmentOf, resolveWord, piecesOf, unquotedPieces, doubleQuoted, simpleEscapes, ansiC;
var init_ShellSyntax = __esm({
  "src/permissions/ShellSyntax.ts"() {
    "use strict";
    init_ShellCommand();
    init_ShellExecution();
    init_ShellWrappers();
    wasmPath = async (file, specifier) => {
      if (typeof WEFT_BUNDLED === "boolean") return join3(__dirname, file);
      const { createRequire } = await import("node:module");
      return createRequire(import.meta.url).resolve(specifier);
    };
    loadParser = () => {
      loading ??= (async () => {
        const runtime3 = await wasmPath("web-tree-sitter.wasm", "web-tree-sitter/web-tree-sitter.wasm");
        await Parser.init({ locateFile: () => runtime3 });
        const language = await Language.load(await wasmPath("tree-sitter-bash.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"));
        const parser = new Parser();
        parser.setLanguage(language);
        return (source) => analyseSource(parser, source);
      })();
      loading.catch(() => {
        loading = void 0;
      });
      return loading;
    };
    maxDepth = 200;
    hiddenCharacterRe = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/u;
    analyseSource = (parser, source) => {
      const walker = new Walker(source);
      if (hiddenCharacterRe.test(source)) {
        walker.reason("HiddenCharacters", "The command holds invisible or control characters, which can make it read differently from what runs.");
      }
      const tree = parser.parse(source);
      if (tree === null) {
        return { source, commands: [], redirects: [], unanalysable: [{ kind: "ParseError", message: "The command could not be parsed." }] };
      }
      try {
        if (tree.rootNode.hasError) {
          walker.reason("ParseError", `The command does not parse cleanly as Bash (${firstError(tree.rootNode)}).`);
        }
        if (source.includes("\\\n") && hasSplitWord(tree.rootNode, source)) {
          walker.reason("Unsupported", "A line continuation inside a word (`r\\\u23CEm`) is read one way by this parser and another by Bash.");
        }
        walker.walk(tree.rootNode, "top", 0);
        walker.finish();
      } finally {
        tree.delete();
      }
      return { source, commands: walker.commands, redirects: walker.redirects, unanalysable: walker.reasons };
    };
    hasSplitWord = (root, source) => {
      const stack = [root];
      while (stack.length > 0) {
        const node2 = stack.pop();
        if (node2 === void 0) break;
        let previous = null;
        for (const child of node2.children) {
          if (previous !== null && previous.isNamed && child.isNamed && child.startIndex > previous.endIndex) {
            const gap = source.slice(previous.endIndex, child.startIndex);
            if (/^(\\\n)+$/.test(gap)) return true;
          }
          if (child.childCount > 0) stack.push(child);
          previous = child;
        }
      }
      return false;
    };
    firstError = (root) => {
      const stack = [root];
      while (stack.length > 0) {
        const node2 = stack.pop();
        if (node2 === void 0) break;
        if (node2.isMissing) return `missing ${JSON.stringify(node2.type)} at offset ${node2.startIndex}`;
        if (node2.type === "ERROR") return `unexpected ${JSON.stringify(node2.text.slice(0, 40))} at offset ${node2.startIndex}`;
        for (let index = node2.childCount - 1; index >= 0; index--) {
          const child = node2.child(index);
          if (child !== null && (child.hasError || child.isMissing)) stack.push(child);
        }
      }
      return "a syntax error";
    };
    Walker = class {
      constructor(source) {
        this.source = source;
      }
      source;
      commands = [];
      redirects = [];
      reasons = [];
      functions = /* @__PURE__ */ new Set();
      tooDeep = false;
      reason(kind, message) {
        if (!this.reasons.some((reason) => reason.kind === kind && reason.message === message)) this.reasons.push({ kind, message });
      }
      finish() {
        for (const command of this.commands) {
          if (command.name !== void 0 && this.functions.has(command.name)) {
            this.reason("FunctionCall", `\`${command.name}\` is a function defined in the command: what a call runs depends on the definition in force.`);
          }
        }
      }
      walk(node2, context2, depth) {
        if (depth > maxDepth) {
          if (!this.tooDeep) this.reason("TooDeep", `The command nests deeper than ${maxDepth} levels and was not analysed.`);
          this.tooDeep = true;
          return;
        }
        switch (node2.type) {
          case "comment":
          case "ERROR":
            return;
          case "command":
            return this.command(node2, context2, [], depth);
          case "declaration_command":
          case "unset_command":
            return this.declaration(node2, context2, depth);
          case "variable_assignment":
          case "variable_assignments":
            return this.bareAssignments(node2, context2, depth);
          case "redirected_statement":
            return this.redirected(node2, context2, depth);
          case "function_definition": {
            const name = node2.childForFieldName("name");
            if (name !== null) this.functions.add(resolveWord(name).value ?? name.text);
            for (const child of node2.namedChildren) {
              if (child === name) continue;
              if (isRedirect(child)) this.redirect(child, context2, depth + 1);
              else this.walk(child, "function", depth + 1);
            }
            return;
          }
          case "command_substitution":
          case "process_substitution":
            for (const child of node2.namedChildren) {
              if (isRedirect(child)) this.redirect(child, "substitution", depth + 1);
              else this.walk(child, "substitution", depth + 1);
            }
            return;
          case "file_redirect":
          case "heredoc_redirect":
          case "herestring_redirect":
            this.redirect(node2, context2, depth);
            return;
          case "arithmetic_expansion":
          case "c_style_for_statement":
            this.arithmetic(node2);
            break;
          case "compound_statement":
            if (node2.text.startsWith("((")) this.arithmetic(node2);
            break;
          case "test_command":
            this.test(node2);
            break;
        }
        for (const child of node2.namedChildren) this.walk(child, context2, depth + 1);
      }
      /** Walks what a word may run: its substitutions (and checks arithmetic in it). */
      inside(node2, context2, depth) {
        if (node2.type === "command_substitution" || node2.type === "process_substitution") return this.walk(node2, context2, depth + 1);
        if (node2.type === "arithmetic_expansion") this.arithmetic(node2);
        this.within(node2, context2, depth);
      }
      within(node2, context2, depth) {
        if (depth > maxDepth) return this.walk(node2, context2, depth);
        for (const child of node2.namedChildren) {
          switch (child.type) {
            case "command_substitution":
            case "process_substitution":
              this.walk(child, context2, depth + 1);
              break;
            case "arithmetic_expansion":
              this.arithmetic(child);
              this.within(child, context2, depth + 1);
              break;
            default:
              this.within(child, context2, depth + 1);
          }
        }
      }
      arithmetic(node2) {
        if (/['"\\`]/.test(node2.text)) {
          this.reason("ArithmeticSubscript", "Arithmetic holds quoted text, which Bash may evaluate as a command.");
        }
      }
      /**
       * Static text holding `[...$(...)...]` or a backquote in brackets: stored in a variable and met in arithmetic
       * (`x='a[$(cmd)]'; echo $((x))`), Bash runs the command in the subscript.
       */
      subscripts(words) {
        for (const word of words) {
          if (word.value !== void 0 && /\[[^\]]*(\$\(|`)/.test(word.value)) {
            this.reason("ArithmeticSubscript", `\`${word.source}\` holds a command in a subscript, which Bash runs if the text is evaluated as arithmetic.`);
          }
        }
      }
      test(node2) {
        if (/\s-(eq|ne|lt|le|gt|ge)\s/.test(node2.text) && node2.text.includes("[", 2)) {
          const inner = node2.text.slice(2, -2);
          if (inner.includes("[")) this.reason("ArithmeticSubscript", "An arithmetic comparison holds a subscript, which Bash may evaluate as a command.");
        }
      }
      redirected(node2, context2, depth) {
        const body = node2.childForFieldName("body");
        const redirectNodes = node2.namedChildren.filter((child) => child !== body && isRedirect(child));
        const redirects = redirectNodes.flatMap((child) => this.redirect(child, context2, depth + 1));
        if (body === null) return;
        if (body.type === "command") this.command(body, context2, redirects, depth + 1);
        else this.walk(body, context2, depth + 1);
      }
      /** Records a redirection (and walks what it may run); returns the redirections it holds. */
      redirect(node2, context2, depth) {
        switch (node2.type) {
          case "file_redirect": {
            const redirect = fileRedirect(node2);
            this.redirects.push(redirect);
            this.inside(node2, context2, depth + 1);
            return [redirect];
          }
          case "heredoc_redirect": {
            const own = { kind: "input", operator: operatorOf(node2) ?? "<<", fd: descriptorOf(node2), target: void 0, source: node2.text.split("\n", 1)[0] ?? "" };
            this.redirects.push(own);
            const found = [own];
            for (const child of node2.namedChildren) {
              if (child.type === "heredoc_start" || child.type === "heredoc_end" || child.type === "file_descriptor") continue;
              if (child.type === "heredoc_body") this.inside(child, context2, depth + 1);
              else if (isRedirect(child)) found.push(...this.redirect(child, context2, depth + 1));
              else this.walk(child, context2, depth + 1);
            }
            return found;
          }
          case "herestring_redirect": {
            const redirect = { kind: "input", operator: "<<<", fd: descriptorOf(node2), target: void 0, source: node2.text };
            this.redirects.push(redirect);
            this.inside(node2, context2, depth + 1);
            return [redirect];
          }
          default:
            this.walk(node2, context2, depth + 1);
            return [];
        }
      }
      bareAssignments(node2, context2, depth) {
        const nodes = node2.type === "variable_assignments" ? node2.namedChildren.filter((child) => child.type === "variable_assignment") : [node2];
        const assignments = nodes.flatMap((assignment) => {
          this.inside(assignment, context2, depth + 1);
          return assignmentOf(assignment);
        });
        this.subscripts(assignments.map((assignment) => assignment.value));
        this.commands.push({ source: node2.text, argv: [], name: void 0, fullArgv: [], wrappers: [], assignments, redirects: [], context: context2 });
      }
      declaration(node2, context2, depth) {
        this.inside(node2, context2, depth + 1);
        const argv = [];
        for (const child of node2.children) {
          if (child.type === "comment") continue;
          argv.push(resolveWord(child));
        }
        this.add(node2.text, argv, [], [], context2, depth);
      }
      command(node2, context2, outer, depth) {
        const assignments = [];
        const redirects = [...outer];
        const argv = [];
        for (const child of node2.namedChildren) {
          if (child.type === "variable_assignment") {
            this.inside(child, context2, depth + 1);
            assignments.push(...assignmentOf(child));
          } else if (isRedirect(child)) {
            redirects.push(...this.redirect(child, context2, depth + 1));
          } else if (child.type === "comment") {
            continue;
          } else if (child.type === "command_name") {
            this.inside(child, context2, depth + 1);
            const name = child.namedChildren[0];
            argv.push(name === void 0 ? resolveWord(child) : resolveWord(name));
          } else if (child.type === "subshell") {
            this.walk(child, context2, depth + 1);
          } else {
            this.inside(child, context2, depth + 1);
            argv.push(resolveWord(child));
          }
        }
        this.add(node2.text, argv, assignments, redirects, context2, depth);
      }
      /** Sees through wrappers, checks what the command executes and records it (and the commands it runs). */
      add(source, fullArgv, prefix, redirects, context2, depth, outerWrappers = []) {
        this.subscripts([...fullArgv, ...prefix.map((assignment) => assignment.value)]);
        let argv = fullArgv;
        const wrappers = [...outerWrappers];
        const assignments = [...prefix];
        for (let level = 0; level < 16; level++) {
          const unwrapped = unwrap(argv);
          if (unwrapped === void 0 || unwrapped._tag === "Itself") break;
          if (unwrapped._tag === "Unanalysable") {
            this.reason(unwrapped.kind, unwrapped.message);
            break;
          }
          wrappers.push({ name: literal(unwrapped.wrapperArgv[0] ?? unknownWord("")) ?? "", argv: unwrapped.wrapperArgv.slice(1), transparent: unwrapped.transparent });
          assignments.push(...unwrapped.assignments);
          argv = unwrapped.argv;
        }
        const first2 = argv[0];
        const name = first2 === void 0 ? void 0 : literal(first2);
        if (first2 !== void 0 && name === void 0) {
          this.reason("DynamicCommandName", `The command name \`${first2.source}\` is built when the command runs (${describe(first2)}), so what runs cannot be told.`);
        } else if (name !== void 0 && !/^[\x21-\x7e]+$/.test(name)) {
          this.reason("HiddenCharacters", `The command name ${JSON.stringify(name)} holds characters outside printable ASCII (a lookalike or an invisible character).`);
        }
        this.commands.push({ source, argv, name, fullArgv, wrappers, assignments, redirects, context: context2 });
        if (name === void 0) return;
        const execution = executionOf(name, argv.slice(1));
        for (const reason of execution.reasons) this.reason(reason.kind, reason.message);
        for (const nested2 of execution.runs) {
          const wrapper = { name, argv: nested2.wrapperArgv, transparent: true };
          this.add(source, nested2.argv, [], [], "nested", depth + 1, [...wrappers, wrapper]);
        }
      }
    };
    isRedirect = (node2) => node2.type === "file_redirect" || node2.type === "heredoc_redirect" || node2.type === "herestring_redirect";
    describe = (word) => word.value === void 0 ? "an expansion or substitution" : word.glob ? "a glob" : word.brace ? "a brace expansion" : word.tilde ? "a home directory" : "an expansion";
    operatorOf = (node2) => {
      for (const child of node2.children) {
        if (!child.isNamed && /^[<>&|-]+$/.test(child.type)) return child.type;
      }
      return void 0;
    };
    descriptorOf = (node2) => {
      const descriptor2 = node2.childForFieldName("descriptor") ?? node2.namedChildren.find((child) => child.type === "file_descriptor");
      return descriptor2 === void 0 || descriptor2 === null ? void 0 : Number(descriptor2.text);
    };
    discardTargets = /* @__PURE__ */ new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2"]);
    fileRedirect = (node2) => {
      const operator = operatorOf(node2) ?? ">";
      const fd = descriptorOf(node2);
      const destination = node2.childForFieldName("destination");
      const target = destination === null ? void 0 : resolveWord(destination);
      const text = target === void 0 ? void 0 : literal(target);
      const base = { operator, fd, target, source: node2.text };
      switch (operator) {
        case "<":
          return { ...base, kind: "read" };
        case "<&-":
        case ">&-":
          return { ...base, kind: "duplicate" };
        case ">&":
        case "<&":
          if (text !== void 0 && /^(\d+-?|-)$/.test(text)) return { ...base, kind: "duplicate" };
          if (operator === "<&") return { ...base, kind: "read" };
          return { ...base, kind: text !== void 0 && discardTargets.has(text) ? "discard" : "write" };
        default:
          return { ...base, kind: text !== void 0 && discardTargets.has(text) ? "discard" : "write" };
      }
    };
    assignmentOf = (node2) => {
      const name = node2.childForFieldName("name");
      const value = node2.childForFieldName("value");
      if (name === null) return [];
      const empty24 = { source: "", value: "", glob: false, brace: false, tilde: false };
      return [{ name: name.type === "variable_name" ? name.text : name.text, value: value === null ? empty24 : resolveWord(value) }];
    };
    resolveWord = (node2) => {
      const pieces = piecesOf(node2);
      if (pieces === void 0) return { source: node2.text, value: void 0, glob: false, brace: node2.type === "brace_expression", tilde: false };
      const value = pieces.map((piece) => piece.text).join("");
      const unquoted = pieces.map((piece) => piece.quoted ? "\0".repeat(piece.text.length) : piece.text).join("");
      const glob = /[*?]/.test(unquoted) || /\[[^\]]*\]/.test(unquoted) || /[?*+@!]\(/.test(unquoted);
      const brace = node2.type === "brace_expression" || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquoted);
      const tilde = unquoted.startsWith("~");
      return { source: node2.text, value, glob, brace, tilde };
    };
    piecesOf = (node2) => {
      switch (node2.type) {
        case "word":
        case "command_name":
        case "heredoc_start":
          if (node2.type === "command_name") {
            const inner = node2.namedChildren;
            if (inner.length === 1 && inner[0] !== void 0) return piecesOf(inner[0]);
          }
          if (node2.namedChildCount > 0) return void 0;
          return unquotedPieces(node2.text);
        case "number":
          return node2.namedChildCount > 0 ? void 0 : [{ text: node2.text, quoted: false }];
        case "variable_name":
        case "file_descriptor":
          return [{ text: node2.text, quoted: false }];
        case "raw_string":
          return [{ text: node2.text.slice(1, -1), quoted: true }];
        case "string": {
          if (node2.namedChildren.some((child) => child.type !== "string_content")) return void 0;
          return [{ text: doubleQuoted(node2.text.slice(1, -1)), quoted: true }];
        }
        case "ansi_c_string": {
          const decoded = ansiC(node2.text.slice(2, -1));
          return decoded === void 0 ? void 0 : [{ text: decoded, quoted: true }];
        }
        case "brace_expression":
          return [{ text: node2.text, quoted: false }];
        case "concatenation": {
          const pieces = [];
          let covered = 0;
          for (const child of node2.children) {
            const own = child.isNamed ? piecesOf(child) : unquotedPieces(child.text);
            if (own === void 0) return void 0;
            pieces.push(...own);
            covered += child.text.length;
          }
          return covered === node2.text.length ? pieces : void 0;
        }
        default:
          if (!node2.isNamed) return unquotedPieces(node2.text);
          return void 0;
      }
    };
    unquotedPieces = (text) => {
      const pieces = [];
      let plain = "";
      for (let index = 0; index < text.length; index++) {
        const char = text.charAt(index);
        if (char === "\\" && index + 1 < text.length) {
          const next = text.charAt(index + 1);
          index++;
          if (next === "\n") continue;
          if (plain.length > 0) pieces.push({ text: plain, quoted: false });
          plain = "";
          pieces.push({ text: next, quoted: true });
          continue;
        }
        plain += char;
      }
      if (plain.length > 0) pieces.push({ text: plain, quoted: false });
      return pieces;
    };
    doubleQuoted = (text) => text.replace(/\\([$`"\\\n])/g, (_match, char) => char === "\n" ? "" : char);
    simpleEscapes = {
      a: "\x07",
      b: "\b",
      e: "\x1B",
      E: "\x1B",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "	",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?"
    };
    ansiC = (text) => {
      let out = "";
      for (let index = 0; index < text.length; index++) {
        const char = text.charAt(index);
        if (char !== "\\") {
          out += char;
          continue;
        }
        const next = text.charAt(index + 1);
        index++;
        const simple2 = simpleEscapes[next];
        if (simple2 !== void 0) {
          out += simple2;
          continue;
        }
        const take = (re, max2) => {
          let digits = "";
          while (digits.length < max2 && re.test(text.charAt(index + 1 + digits.length))) digits += text.charAt(index + 1 + digits.length);
          return digits;
        };
        if (/[0-7]/.test(next)) {
          const more = take(/[0-7]/, 2);
          index += more.length;
          const code = parseInt(next + more, 8) & 255;
          if (code === 0 || code > 127) return void 0;
          out += String.fromCharCode(code);
          continue;
        }
        if (next === "x" || next === "u" || next === "U") {
          const digits = take(/[0-9a-fA-F]/, next === "x" ? 2 : next === "u" ? 4 : 8);
          if (digits.length === 0) return void 0;
          index += digits.length;
          const code = parseInt(digits, 16);
          if (code === 0 || code > 1114111 || next === "x" && code > 127) return void 0;
          out += String.fromCodePoint(code);
          continue;
        }
        return void 0;
      }
      return out;
    };
  }
});

// src/permissions/ShellCommand.ts
var literal, unknownWord, maxSourceLength, writes, isAnalysed, unanalysableOnly, analyze, inertNameRe, isInertAssignment;
var init_ShellCommand = __esm({
  "src/permissions/ShellCommand.ts"() {
    "use strict";
    init_Effect();
    literal = (word) => word.value !== void 0 && !word.glob && !word.brace && !word.tilde ? word.value : void 0;
    unknownWord = (source) => ({ source, value: void 0, glob: false, brace: false, tilde: false });
    maxSourceLength = 64 * 1024;
    writes = (analysis) => analysis.redirects.flatMap((redirect) => redirect.kind === "write" && redirect.target !== void 0 ? [redirect.target] : []);
    isAnalysed = (analysis) => analysis.unanalysable.length === 0;
    unanalysableOnly = (source, kind, message) => ({
      source,
      commands: [],
      redirects: [],
      unanalysable: [{ kind, message }]
    });
    analyze = fn("ShellCommand.analyze")(function* (command) {
      if (command.length > maxSourceLength) {
        return unanalysableOnly(command, "TooLong", `The command is longer than ${maxSourceLength} characters and was not analysed.`);
      }
      const syntax = yield* either3(
        tryPromise2({ try: () => Promise.resolve().then(() => (init_ShellSyntax(), ShellSyntax_exports)).then((module) => module.loadParser()), catch: (cause2) => cause2 })
      );
      if (syntax._tag === "Left") {
        return unanalysableOnly(command, "ParserUnavailable", `The shell parser could not be loaded (${String(syntax.left)}).`);
      }
      return syntax.right(command);
    });
    inertNameRe = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM|CI|DEBUG|NODE_ENV|RUST_LOG|RUST_BACKTRACE|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|GIT_PAGER_IN_USE)$/;
    isInertAssignment = (assignment) => inertNameRe.test(assignment.name) || /^[a-z_][a-z0-9_]*$/.test(assignment.name) && !assignment.name.endsWith("_proxy");
  }
});

// scratchpad/tmp/try.ts
init_Effect();
init_ShellCommand();

// src/permissions/ReadOnlyCommands.ts
init_ShellCommand();
init_ShellExecution();
init_ShellOptions();
var notReadOnly = (reason) => ({ _tag: "NotReadOnly", reason });
var gnu = (shortFlags, shortValues, longFlags, longValues, rest = {}) => ({
  ...rest,
  options: { shortFlags, shortValues, longFlags: [...longFlags, "help", "version"], longValues, abbreviations: false, ...rest.options }
});
var grepSpec = gnu(
  "EFGPiyvwxclLoqsbHhnTZzaIrRUVu",
  "efmABCdD",
  [
    "extended-regexp",
    "fixed-strings",
    "basic-regexp",
    "perl-regexp",
    "ignore-case",
    "no-ignore-case",
    "word-regexp",
    "line-regexp",
    "null-data",
    "no-messages",
    "invert-match",
    "byte-offset",
    "line-number",
    "line-buffered",
    "with-filename",
    "no-filename",
    "only-matching",
    "quiet",
    "silent",
    "text",
    "recursive",
    "dereference-recursive",
    "files-without-match",
    "files-with-matches",
    "count",
    "initial-tab",
    "null",
    "color",
    "colour"
  ],
  [
    "regexp",
    "file",
    "max-count",
    "label",
    "binary-files",
    "directories",
    "devices",
    "include",
    "exclude",
    "exclude-from",
    "exclude-dir",
    "before-context",
    "after-context",
    "context"
  ],
  { operands: "pattern-then-paths", pathOptions: ["f", "file", "exclude-from"], options: { longOptionalValues: ["color", "colour"] } }
);
var rgSpec = gnu(
  "iSswxvclLnNHIoFPUaquzl.",
  "egtTABCmMdjr",
  [
    "ignore-case",
    "smart-case",
    "case-sensitive",
    "word-regexp",
    "line-regexp",
    "invert-match",
    "count",
    "count-matches",
    "files-with-matches",
    "files-without-match",
    "follow",
    "line-number",
    "no-line-number",
    "with-filename",
    "no-filename",
    "no-heading",
    "heading",
    "column",
    "only-matching",
    "fixed-strings",
    "pcre2",
    "multiline",
    "multiline-dotall",
    "text",
    "quiet",
    "unrestricted",
    "hidden",
    "no-ignore",
    "no-ignore-vcs",
    "no-ignore-parent",
    "no-ignore-dot",
    "no-ignore-global",
    "no-ignore-exclude",
    "no-ignore-files",
    "files",
    "json",
    "vimgrep",
    "stats",
    "type-list",
    "trim",
    "null",
    "no-messages",
    "passthru",
    "one-file-system",
    "no-config",
    "debug",
    "binary",
    "no-binary",
    "crlf",
    "byte-offset",
    "sort-files",
    "max-columns-preview",
    "glob-case-insensitive",
    "line-buffered",
    "block-buffered",
    "no-unicode",
    "invert-match",
    "no-follow"
  ],
  [
    "regexp",
    "glob",
    "iglob",
    "type",
    "type-not",
    "type-add",
    "after-context",
    "before-context",
    "context",
    "max-count",
    "max-depth",
    "maxdepth",
    "max-columns",
    "max-filesize",
    "threads",
    "sort",
    "sortr",
    "color",
    "colors",
    "replace",
    "encoding",
    "engine",
    "field-match-separator",
    "field-context-separator",
    "context-separator",
    "path-separator",
    "dfa-size-limit",
    "regex-size-limit"
  ],
  // Not --pre (runs a program on each file), --search-zip/-z (runs decompressors), --hostname-bin, --ignore-file (a path: asked).
  { operands: "pattern-then-paths", options: { shortFlags: "iSswxvclLnNHIoFPUaq.", longOptionalValues: [] } }
);
var lsSpec = gnu(
  "aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1",
  "ITw",
  [
    "all",
    "almost-all",
    "author",
    "escape",
    "ignore-backups",
    "classify",
    "file-type",
    "full-time",
    "group-directories-first",
    "no-group",
    "human-readable",
    "si",
    "dereference-command-line",
    "dereference-command-line-symlink-to-dir",
    "hyperlink",
    "inode",
    "kibibytes",
    "literal",
    "numeric-uid-gid",
    "quote-name",
    "reverse",
    "recursive",
    "size",
    "context",
    "directory",
    "dereference",
    "hide-control-chars",
    "show-control-chars",
    "color"
  ],
  ["block-size", "format", "hide", "indicator-style", "ignore", "quoting-style", "sort", "time", "time-style", "tabsize", "width"],
  { options: { longOptionalValues: ["color", "classify", "hyperlink"] } }
);
var none10 = (shortFlags = "", longFlags = []) => gnu(shortFlags, "", longFlags, [], { operands: "none" });
var anything = { options: {}, anyArguments: true };
var table = {
  ls: lsSpec,
  dir: lsSpec,
  cat: gnu("AbeEnstTuv", "", ["show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"], []),
  tac: gnu("brs", "s", ["before", "regex"], ["separator"]),
  head: gnu("qvz", "cn", ["quiet", "silent", "verbose", "zero-terminated"], ["bytes", "lines"]),
  // tail -f only reads (the Bash tool's timeout bounds it).
  tail: gnu("fFqvz", "cns", ["quiet", "silent", "verbose", "zero-terminated", "retry"], ["bytes", "lines", "sleep-interval", "pid", "max-unchanged-stats"], {
    options: { longOptionalValues: ["follow"] }
  }),
  wc: gnu("clmwL", "", ["bytes", "chars", "lines", "words", "max-line-length"], ["total"]),
  pwd: none10("LP"),
  echo: anything,
  printf: anything,
  true: anything,
  false: anything,
  ":": anything,
  test: anything,
  "[": anything,
  grep: grepSpec,
  egrep: grepSpec,
  fgrep: grepSpec,
  rg: rgSpec,
  sort: gnu(
    "bdfgiMhnRrVcCmsuz",
    "kStT",
    ["ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort", "check", "merge", "stable", "unique", "zero-terminated", "debug"],
    ["key", "buffer-size", "field-separator", "temporary-directory", "parallel", "sort", "check"]
  ),
  uniq: gnu("cdDfisuzw", "fsw", ["count", "repeated", "ignore-case", "unique", "zero-terminated"], ["all-repeated", "skip-fields", "skip-chars", "check-chars", "group"], { maxOperands: 1 }),
  cut: gnu("bcdfsnz", "bcdf", ["complement", "only-delimited", "zero-terminated"], ["bytes", "characters", "delimiter", "fields", "output-delimiter"]),
  tr: gnu("cCdst", "", ["complement", "delete", "squeeze-repeats", "truncate-set1"], [], { operands: "none" }),
  nl: gnu("pb", "bdfhilnsvw", [], []),
  diff: gnu(
    "abBdeEfilNnpqrstTuwyZ",
    "CUIxXFLSD",
    [
      "text",
      "ignore-blank-lines",
      "ignore-space-change",
      "ignore-all-space",
      "ignore-case",
      "ignore-tab-expansion",
      "ignore-trailing-space",
      "minimal",
      "new-file",
      "unidirectional-new-file",
      "report-identical-files",
      "brief",
      "recursive",
      "side-by-side",
      "suppress-common-lines",
      "expand-tabs",
      "initial-tab",
      "strip-trailing-cr",
      "normal",
      "show-c-function",
      "left-column",
      "speed-large-files",
      "suppress-blank-empty",
      "color"
    ],
    ["context", "unified", "ignore-matching-lines", "exclude", "exclude-from", "show-function-line", "label", "starting-file", "width", "tabsize", "to-file", "from-file", "line-format", "new-line-format", "old-line-format", "unchanged-line-format", "horizon-lines"],
    { pathOptions: ["X", "exclude-from", "to-file", "from-file"], options: { longOptionalValues: ["color", "context", "unified"] } }
  ),
  cmp: gnu("bls", "in", ["print-bytes", "verbose", "quiet", "silent"], ["ignore-initial", "bytes"]),
  comm: gnu("123z", "", ["check-order", "nocheck-order", "zero-terminated", "total"], ["output-delimiter"]),
  file: gnu("bcdEhiklLNnprsSvz0", "eFP", ["brief", "dereference", "no-dereference", "mime", "mime-type", "mime-encoding", "keep-going", "no-pad", "no-buffer", "preserve-date", "raw", "special-files", "uncompress", "uncompress-noreport", "print0", "extension", "apple"], ["exclude", "separator", "parameter"], {
    options: { shortFlags: "bdEhiklLNnprsSvz0" }
  }),
  stat: gnu("LftZ", "c", ["dereference", "file-system", "terse"], ["format", "printf", "cached"]),
  du: gnu("0abcDhHklLmPsSxt", "dBtX", ["null", "all", "apparent-size", "bytes", "total", "dereference-args", "human-readable", "inodes", "count-links", "dereference", "no-dereference", "separate-dirs", "si", "summarize", "one-file-system", "time"], ["max-depth", "block-size", "threshold", "exclude", "time-style"], {
    pathOptions: ["X", "exclude-from"]
  }),
  df: gnu("ahHiklPTtvx", "BtxF", ["all", "human-readable", "si", "inodes", "local", "portability", "print-type", "total", "no-sync", "sync"], ["block-size", "type", "exclude-type", "output"], {
    options: { longOptionalValues: ["output"] }
  }),
  which: none10("as"),
  whereis: gnu("bmsu", "BMSf", [], [], { operands: "not-paths" }),
  type: { options: { shortFlags: "afptP", abbreviations: false }, operands: "not-paths" },
  basename: anything,
  dirname: anything,
  realpath: gnu("eLmPqsz", "", ["canonicalize-existing", "canonicalize-missing", "logical", "physical", "quiet", "strip", "no-symlinks", "zero"], ["relative-to", "relative-base"], { operands: "not-paths" }),
  readlink: gnu("efmnqsvz", "", ["canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "verbose", "zero"], [], { operands: "not-paths" }),
  date: gnu("uRI", "d", ["utc", "universal", "rfc-email", "debug"], ["date", "iso-8601", "rfc-3339"], {
    operands: "none",
    // An operand other than +FORMAT sets the clock.
    check: (_options, operands) => operands.every((word) => literal(word)?.startsWith("+") === true) ? void 0 : "`date` with an operand other than +FORMAT sets the clock",
    options: { shortOptionalValues: "I", longOptionalValues: ["iso-8601"] }
  }),
  whoami: none10(),
  id: gnu("aZgGnruz", "", ["context", "group", "groups", "name", "real", "user", "zero"], [], { operands: "not-paths" }),
  uname: none10("asnrvmpio", ["all", "kernel-name", "nodename", "kernel-release", "kernel-version", "machine", "processor", "hardware-platform", "operating-system"]),
  hostname: none10("fsidAI", ["fqdn", "short", "ip-address", "domain", "all-fqdns", "all-ip-addresses"]),
  uptime: none10("ps", ["pretty", "since"]),
  nproc: none10("", ["all"]),
  arch: none10(),
  tty: none10("s", ["silent", "quiet"]),
  locale: none10("ackm", ["all-locales", "charmaps", "category-name", "keyword-name"]),
  printenv: { options: { shortFlags: "0", longFlags: ["null"], abbreviations: false }, operands: "not-paths" },
  seq: anything,
  expr: anything,
  rev: none10(),
  fold: gnu("bs", "w", ["bytes", "spaces"], ["width"]),
  fmt: gnu("cstu", "pgw", ["crown-margin", "split-only", "tagged-paragraph", "uniform-spacing"], ["prefix", "goal", "width"]),
  column: gnu("tnexJLR", "cdNoOHrsSWl", ["table", "fillrows", "json", "keep-empty-lines"], ["output-width", "separator", "output-separator", "table-columns", "table-name"]),
  paste: gnu("sz", "d", ["serial", "zero-terminated"], ["delimiters"]),
  join: gnu("ivz", "aejt12o", ["ignore-case", "check-order", "nocheck-order", "header", "zero-terminated"], []),
  od: gnu("bcdfilosvx", "AjNtSw", ["output-duplicates", "traditional"], ["address-radix", "skip-bytes", "read-bytes", "format", "strings", "width", "endian"]),
  hexdump: gnu("bcCdovx", "enNs", [], []),
  xxd: gnu("aEipsuCbre", "cgnlos", [], [], {
    // `xxd in out` writes out; -r turns a dump back into a file.
    maxOperands: 1,
    options: { shortFlags: "aEipuCbe", shortValues: "cgnlos" }
  }),
  strings: gnu("afwd", "nteT", ["all", "print-file-name", "include-all-whitespace", "data"], ["bytes", "radix", "encoding", "target", "output-separator"]),
  md5sum: gnu("bctwz", "", ["binary", "check", "text", "tag", "zero", "ignore-missing", "quiet", "status", "strict", "warn"], []),
  sha1sum: gnu("bctwz", "", ["binary", "check", "text", "tag", "zero", "ignore-missing", "quiet", "status", "strict", "warn"], []),
  sha256sum: gnu("bctwz", "", ["binary", "check", "text", "tag", "zero", "ignore-missing", "quiet", "status", "strict", "warn"], []),
  sha512sum: gnu("bctwz", "", ["binary", "check", "text", "tag", "zero", "ignore-missing", "quiet", "status", "strict", "warn"], []),
  cksum: gnu("", "a", ["raw", "tag", "untagged", "base64", "check"], ["algorithm", "length"]),
  base64: gnu("diw", "w", ["decode", "ignore-garbage"], ["wrap"], { maxOperands: 1 }),
  jq: gnu("rjacnsSeCMj", "", ["raw-output", "join-output", "ascii-output", "compact-output", "null-input", "slurp", "sort-keys", "exit-status", "color-output", "monochrome-output", "tab", "raw-input", "seq", "stream"], ["arg", "argjson", "indent"], {
    operands: "pattern-then-paths"
  }),
  tree: gnu("adfgilpsuDFhqQNrtvxACJXL", "PILH", ["noreport", "dirsfirst", "du", "prune", "charset", "filelimit", "timefmt", "gitignore", "matchdirs", "ignore-case", "info"], ["charset", "filelimit", "timefmt", "sort"], {
    options: { shortFlags: "adfgilpsuDFhqQNrtvxACJX", shortValues: "PILH" }
  }),
  cd: {
    options: { shortFlags: "LPe@", abbreviations: false, stopAtOperand: true },
    // `cd` alone goes home, `cd -` to the previous directory: both outside what can be checked here.
    check: (_options, operands) => operands.length === 1 && literal(operands[0] ?? { source: "", value: void 0, glob: false, brace: false, tilde: false }) !== "-" ? void 0 : "`cd` without a directory, or `cd -`, leaves for a directory not named"
  },
  sed: gnu("nrEsuz", "el", ["quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data", "posix", "debug", "sandbox", "follow-symlinks"], ["expression", "line-length"], {
    // No -i/--in-place (writes), no -f (a script file not read here).
    operands: "pattern-then-paths",
    check: (options, operands) => {
      const scripts = sedScripts([
        ...options.flatMap((option2) => option2.name === "e" || option2.name === "expression" ? [{ source: "-e", value: "-e", glob: false, brace: false, tilde: false }, wordOfOption(option2)] : []),
        ...operands
      ]);
      if (scripts === void 0) return "its script is not static";
      const verdicts = scripts.map(sedScript);
      if (verdicts.includes("executes")) return "its script runs commands (`e`)";
      if (verdicts.includes("writes")) return "its script writes files (`w`, `W` or the `w` flag)";
      if (verdicts.includes("unknown")) return "its script holds commands this check does not read as printing only (`r`, `R` or unknown)";
      return void 0;
    }
  }),
  awk: {
    options: { shortValues: "Fv", abbreviations: false },
    operands: "pattern-then-paths",
    check: (_options, operands) => {
      const program = operands[0] === void 0 ? void 0 : literal(operands[0]);
      if (program === void 0) return "its program is not static";
      return /[>|]|\bsystem\s*\(|\bgetline\b|\bfflush\b|@/.test(program) ? "its program writes, pipes or runs commands" : void 0;
    }
  }
};
var wordOfOption = (option2) => {
  const value = option2.value;
  if (value === void 0) return { source: "", value: "", glob: false, brace: false, tilde: false };
  return typeof value === "string" ? { source: value, value, glob: false, brace: false, tilde: false } : value;
};
var findPredicates = {
  "-name": 1,
  "-iname": 1,
  "-path": 1,
  "-ipath": 1,
  "-wholename": 1,
  "-iwholename": 1,
  "-regex": 1,
  "-iregex": 1,
  "-regextype": 1,
  "-type": 1,
  "-xtype": 1,
  "-size": 1,
  "-mtime": 1,
  "-mmin": 1,
  "-atime": 1,
  "-amin": 1,
  "-ctime": 1,
  "-cmin": 1,
  "-used": 1,
  "-user": 1,
  "-group": 1,
  "-uid": 1,
  "-gid": 1,
  "-perm": 1,
  "-maxdepth": 1,
  "-mindepth": 1,
  "-links": 1,
  "-inum": 1,
  "-lname": 1,
  "-ilname": 1,
  "-printf": 1,
  "-fstype": 1,
  "-context": 1,
  "-newer": 1,
  "-anewer": 1,
  "-cnewer": 1,
  "-samefile": 1,
  "-empty": 0,
  "-print": 0,
  "-print0": 0,
  "-ls": 0,
  "-prune": 0,
  "-not": 0,
  "!": 0,
  "-o": 0,
  "-or": 0,
  "-a": 0,
  "-and": 0,
  "(": 0,
  ")": 0,
  ",": 0,
  "-follow": 0,
  "-depth": 0,
  "-xdev": 0,
  "-mount": 0,
  "-readable": 0,
  "-writable": 0,
  "-executable": 0,
  "-true": 0,
  "-false": 0,
  "-quit": 0,
  "-daystart": 0,
  "-noleaf": 0,
  "-nouser": 0,
  "-nogroup": 0,
  "-ignore_readdir_race": 0,
  "-noignore_readdir_race": 0,
  "-warn": 0,
  "-nowarn": 0
};
var findPathPredicates = /* @__PURE__ */ new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);
var findCheck = (args2) => {
  const paths = [];
  let index = 0;
  while (index < args2.length) {
    const text = literal(args2[index] ?? { source: "", value: void 0, glob: false, brace: false, tilde: false });
    if (text === "-H" || text === "-L" || text === "-P" || text === "-O0" || text === "-O1" || text === "-O2" || text === "-O3") {
      index++;
      continue;
    }
    if (text === "-D") {
      index += 2;
      continue;
    }
    break;
  }
  while (index < args2.length) {
    const word = args2[index];
    if (word === void 0) break;
    const text = word.value;
    if (text !== void 0 && (text.startsWith("-") || text === "(" || text === "!" || text === ")" || text === ",")) break;
    paths.push(word);
    index++;
  }
  while (index < args2.length) {
    const word = args2[index];
    if (word === void 0) break;
    const text = literal(word);
    if (text === void 0) return notReadOnly("`find` is given a word built at run time where its expression stands");
    const arity = Object.hasOwn(findPredicates, text) ? findPredicates[text] : /^-newer[amcBt][amcBt]$/.test(text) ? 1 : void 0;
    if (arity === void 0) return notReadOnly(`\`find ${text}\` is not known to be read-only`);
    if (findPathPredicates.has(text) && args2[index + 1] !== void 0) paths.push(args2[index + 1]);
    index += 1 + arity;
  }
  if (paths.length === 0) paths.push({ source: ".", value: ".", glob: false, brace: false, tilde: false });
  return readPaths(paths);
};
var gitLogLike = [
  "stat",
  "numstat",
  "shortstat",
  "name-only",
  "name-status",
  "oneline",
  "patch",
  "no-patch",
  "cached",
  "staged",
  "no-color",
  "ignore-space-change",
  "ignore-all-space",
  "ignore-space-at-eol",
  "ignore-blank-lines",
  "ignore-cr-at-eol",
  "summary",
  "graph",
  "all",
  "reverse",
  "first-parent",
  "merges",
  "no-merges",
  "abbrev-commit",
  "no-abbrev-commit",
  "follow",
  "pickaxe-all",
  "patch-with-stat",
  "minimal",
  "histogram",
  "patience",
  "raw",
  "full-index",
  "binary",
  "no-prefix",
  "exit-code",
  "quiet",
  "check",
  "left-right",
  "cherry-pick",
  "cherry-mark",
  "boundary",
  "topo-order",
  "date-order",
  "author-date-order",
  "no-walk",
  "notes",
  "no-notes",
  "expand-tabs",
  "no-expand-tabs",
  "no-renames",
  "text",
  "function-context",
  "color-words",
  "no-ext-diff",
  "no-textconv",
  "ita-invisible-in-index",
  "merge-base",
  "branches",
  "tags",
  "remotes",
  "full-history",
  "simplify-merges",
  "ancestry-path",
  "source",
  "use-mailmap",
  "log-size",
  "parents",
  "children",
  "relative-date",
  "show-linear-break",
  "no-decorate",
  "decorate",
  "name-rev",
  "irreversible-delete",
  "numbered",
  "ignore-submodules",
  "find-renames",
  "find-copies",
  "find-copies-harder",
  "compact-summary",
  "combined-all-paths",
  "cc",
  "remerge-diff",
  "dense-combined",
  "no-standard-notes",
  "standard-notes",
  "show-pulls",
  "regexp-ignore-case",
  "basic-regexp",
  "extended-regexp",
  "fixed-strings",
  "perl-regexp",
  "all-match",
  "invert-grep",
  "no-min-parents",
  "no-max-parents",
  "show-notes-by-default",
  "unified",
  "word-diff",
  "color",
  "dirstat",
  "relative",
  "submodule",
  "stdin",
  "only-matching"
];
var gitLogLikeValues = [
  "format",
  "pretty",
  "max-count",
  "skip",
  "since",
  "after",
  "until",
  "before",
  "author",
  "committer",
  "grep",
  "date",
  "diff-filter",
  "src-prefix",
  "dst-prefix",
  "line-prefix",
  "abbrev",
  "decorate-refs",
  "decorate-refs-exclude",
  "min-parents",
  "max-parents",
  "encoding",
  "inter-hunk-context",
  "diff-algorithm",
  "word-diff-regex",
  "color-moved",
  "color-moved-ws",
  "anchored",
  "ignore-matching-lines",
  "stat-width",
  "stat-name-width",
  "stat-count",
  "stat-graph-width",
  "exclude",
  "glob",
  "show-notes",
  "notes-ref",
  "break-rewrites",
  "find-object",
  "output-indicator-new",
  "output-indicator-old",
  "output-indicator-context",
  "rotate-to",
  "skip-to",
  "diff-merges",
  "orderfile"
];
var gitLogSpec = {
  shortFlags: "psuwbRzaWtimMCBDrnv0123456789",
  shortValues: "USGLOlnX",
  longFlags: gitLogLike,
  longValues: gitLogLikeValues,
  longOptionalValues: ["color", "decorate", "word-diff", "dirstat", "relative", "submodule", "abbrev", "find-renames", "find-copies", "unified", "pretty", "notes", "color-moved", "show-notes", "break-rewrites"],
  abbreviations: false
};
var gitSubcommands = {
  status: {
    shortFlags: "sbuvz",
    longFlags: ["short", "branch", "show-stash", "porcelain", "long", "verbose", "null", "ahead-behind", "no-ahead-behind", "renames", "no-renames", "untracked-files", "ignored", "ignore-submodules"],
    longOptionalValues: ["porcelain", "untracked-files", "ignored", "ignore-submodules", "column", "find-renames"],
    shortOptionalValues: "u",
    abbreviations: false
  },
  diff: gitLogSpec,
  log: gitLogSpec,
  show: gitLogSpec,
  shortlog: { shortFlags: "nsec", longFlags: ["numbered", "summary", "email", "committer", "all"], longValues: ["format", "group", "since", "until"], abbreviations: false },
  whatchanged: gitLogSpec,
  "diff-tree": gitLogSpec,
  "diff-index": gitLogSpec,
  "diff-files": gitLogSpec,
  "rev-parse": {
    shortFlags: "q",
    longFlags: [
      "show-toplevel",
      "show-prefix",
      "show-cdup",
      "git-dir",
      "git-common-dir",
      "absolute-git-dir",
      "is-inside-work-tree",
      "is-inside-git-dir",
      "is-bare-repository",
      "is-shallow-repository",
      "verify",
      "quiet",
      "symbolic",
      "symbolic-full-name",
      "all",
      "branches",
      "tags",
      "remotes",
      "local-env-vars",
      "show-superproject-working-tree",
      "sq",
      "not",
      "revs-only",
      "no-revs",
      "flags",
      "no-flags",
      "default"
    ],
    longValues: ["short", "abbrev-ref", "git-path", "resolve-git-dir", "since", "until", "path-format", "show-object-format", "after", "before"],
    longOptionalValues: ["short", "abbrev-ref", "show-object-format"],
    abbreviations: false
  },
  "ls-files": { shortFlags: "cdmoiskuzftvl", shortValues: "xX", longFlags: ["cached", "deleted", "modified", "others", "ignored", "stage", "killed", "unmerged", "exclude-standard", "directory", "no-empty-directory", "full-name", "recurse-submodules", "error-unmatch", "eol", "deduplicate", "sparse", "debug", "resolve-undo", "abbrev"], longValues: ["exclude", "with-tree", "format"], abbreviations: false },
  "ls-tree": { shortFlags: "dlrtz", longFlags: ["long", "name-only", "name-status", "object-only", "full-name", "full-tree", "abbrev"], longValues: ["format"], abbreviations: false },
  "cat-file": { shortFlags: "tspe", longFlags: ["batch-check", "batch", "batch-all-objects", "follow-symlinks", "unordered", "allow-unknown-type", "mailmap", "no-mailmap"], abbreviations: false },
  blame: { shortFlags: "bclnpsteflwM0123456789C", shortValues: "LS", longFlags: ["root", "show-stats", "porcelain", "line-porcelain", "incremental", "show-name", "show-number", "show-email", "minimal"], longValues: ["date", "abbrev", "ignore-rev", "ignore-revs-file"], abbreviations: false },
  "merge-base": { shortFlags: "a", longFlags: ["all", "octopus", "independent", "is-ancestor", "fork-point"], abbreviations: false },
  "name-rev": { longFlags: ["name-only", "no-undefined", "always", "all", "annotate-stdin"], longValues: ["tags", "refs", "exclude"], abbreviations: false },
  "for-each-ref": { longFlags: ["shell", "perl", "python", "tcl", "ignore-case", "omit-empty", "stdin"], longValues: ["count", "sort", "format", "points-at", "merged", "no-merged", "contains", "no-contains", "exclude"], abbreviations: false },
  "show-ref": { shortFlags: "dsq", longFlags: ["head", "heads", "branches", "tags", "dereference", "quiet", "verify", "exists"], longValues: ["hash", "abbrev"], longOptionalValues: ["hash", "abbrev"], abbreviations: false },
  "count-objects": { shortFlags: "vH", longFlags: ["verbose", "human-readable"], abbreviations: false },
  "rev-list": { ...gitLogSpec, longFlags: [...gitLogLike, "count", "objects", "objects-edge", "left-only", "right-only", "bisect", "timestamp", "header", "in-commit-order"] },
  describe: { longFlags: ["all", "tags", "contains", "long", "always", "first-parent", "exact-match", "debug"], longValues: ["abbrev", "candidates", "match", "exclude", "dirty", "broken"], longOptionalValues: ["dirty", "broken", "abbrev"], abbreviations: false },
  "check-ignore": { shortFlags: "qvnz", longFlags: ["quiet", "verbose", "non-matching", "no-index", "stdin"], abbreviations: false },
  "check-attr": { shortFlags: "az", longFlags: ["all", "cached", "stdin"], longValues: ["source"], abbreviations: false },
  grep: { shortFlags: "aiIwvhHEGFPnlLcoqzrW0123456789", shortValues: "efABCm", longFlags: ["cached", "untracked", "no-index", "recurse-submodules", "text", "ignore-case", "word-regexp", "invert-match", "full-name", "extended-regexp", "basic-regexp", "fixed-strings", "perl-regexp", "line-number", "column", "files-with-matches", "name-only", "files-without-match", "count", "null", "break", "heading", "show-function", "function-context", "all-match", "quiet", "and", "or", "not", "only-matching"], longValues: ["max-depth", "context", "after-context", "before-context", "threads", "max-count"], abbreviations: false, check: (options) => options.some((option2) => option2.name === "no-index" || option2.name === "f") ? "`git grep --no-index` or `-f` reads files outside the repository" : void 0 },
  version: { abbreviations: false },
  branch: {
    shortFlags: "arlv",
    longFlags: ["all", "remotes", "list", "verbose", "show-current", "ignore-case", "omit-empty", "no-column", "no-color"],
    longValues: ["merged", "no-merged", "contains", "no-contains", "points-at", "sort", "format", "abbrev"],
    longOptionalValues: ["color", "column", "merged", "no-merged", "contains", "no-contains", "abbrev"],
    abbreviations: false,
    // Operands name a branch to create unless listing (`--list <pattern>`).
    check: (options, operands) => operands.length === 0 || options.some((option2) => option2.name === "l" || option2.name === "list") ? void 0 : "`git branch <name>` creates a branch"
  },
  tag: {
    shortFlags: "ln",
    longFlags: ["list", "ignore-case", "omit-empty", "no-column"],
    longValues: ["sort", "format", "contains", "no-contains", "merged", "no-merged", "points-at"],
    longOptionalValues: ["color", "column", "contains", "merged", "no-merged"],
    abbreviations: false,
    check: (options, operands) => operands.length === 0 || options.some((option2) => option2.name === "l" || option2.name === "list") ? void 0 : "`git tag <name>` creates a tag"
  },
  remote: {
    shortFlags: "v",
    longFlags: ["verbose"],
    abbreviations: false,
    check: (_options, operands) => {
      const first2 = operands[0] === void 0 ? void 0 : literal(operands[0]);
      return operands.length === 0 || first2 === "get-url" ? void 0 : "`git remote` with a subcommand changes or contacts remotes";
    }
  },
  stash: {
    abbreviations: false,
    check: (_options, operands) => {
      const first2 = operands[0] === void 0 ? void 0 : literal(operands[0]);
      return first2 === "list" || first2 === "show" ? void 0 : "`git stash` other than list or show changes the working tree";
    },
    ...gitLogSpec
  },
  worktree: { abbreviations: false, longFlags: ["porcelain", "verbose"], shortFlags: "vz", check: (_options, operands) => operands.length === 1 && literal(operands[0] ?? { source: "", value: void 0, glob: false, brace: false, tilde: false }) === "list" ? void 0 : "only `git worktree list` is read-only" },
  reflog: { ...gitLogSpec, check: (_options, operands) => operands.length === 0 || literal(operands[0] ?? { source: "", value: void 0, glob: false, brace: false, tilde: false }) === "show" ? void 0 : "`git reflog` other than show changes the reflog" },
  config: {
    shortFlags: "lz",
    longFlags: ["list", "get", "get-all", "get-regexp", "get-urlmatch", "global", "system", "local", "worktree", "show-origin", "show-scope", "name-only", "null", "includes", "no-includes", "bool", "int", "path", "bool-or-int", "expiry-date"],
    longValues: ["type", "default"],
    abbreviations: false,
    check: (options, operands) => options.some((option2) => ["l", "list", "get", "get-all", "get-regexp", "get-urlmatch"].includes(option2.name)) || operands.length > 0 && ["get", "list"].includes(literal(operands[0] ?? { source: "", value: void 0, glob: false, brace: false, tilde: false }) ?? "") ? operands.length <= 3 ? void 0 : "`git config` given a value sets it" : "`git config` other than --get/--list sets a value"
  }
};
var gitGlobal = {
  shortFlags: "Pp",
  shortValues: "C",
  longFlags: ["no-pager", "paginate", "no-replace-objects", "no-optional-locks", "literal-pathspecs", "glob-pathspecs", "noglob-pathspecs", "icase-pathspecs", "bare", "no-lazy-fetch", "no-advice", "version", "help"],
  longValues: ["git-dir", "work-tree", "namespace"],
  abbreviations: false,
  stopAtOperand: true
};
var gitCheck = (args2) => {
  const global = parseOptions(args2, gitGlobal);
  if (global._tag === "Unknown") return notReadOnly(`\`git ${global.word}\` is not known to be read-only (${global.why})`);
  const paths = [];
  for (const option2 of global.options) {
    if (option2.name === "C" || option2.name === "git-dir" || option2.name === "work-tree") paths.push(wordOfOption(option2));
  }
  const subcommandWord = args2[global.firstOperand];
  if (subcommandWord === void 0) return readPaths(paths);
  const subcommand = literal(subcommandWord);
  if (subcommand === void 0) return notReadOnly("`git`'s subcommand is built at run time");
  const spec = Object.hasOwn(gitSubcommands, subcommand) ? gitSubcommands[subcommand] : void 0;
  if (spec === void 0) return notReadOnly(`\`git ${subcommand}\` is not known to be read-only`);
  const rest = args2.slice(global.firstOperand + 1);
  const dashDash = rest.findIndex((word) => literal(word) === "--");
  const parsed = parseOptions(dashDash === -1 ? rest : rest.slice(0, dashDash), { ...spec, stopAtOperand: false });
  if (parsed._tag === "Unknown") return notReadOnly(`\`git ${subcommand} ${parsed.word}\` is not known to be read-only (${parsed.why})`);
  const problem = spec.check?.(parsed.options, parsed.operands);
  if (problem !== void 0) return notReadOnly(problem);
  return readPaths(paths);
};
var globDirectory = (pattern) => {
  const components = pattern.split("/");
  const fixed = [];
  let seenGlob = false;
  for (const component of components) {
    const isGlob = /[*?[]/.test(component);
    if (isGlob && (component.startsWith(".") || component.startsWith("[") || component.includes("."))) {
      if (/^\.[*?[]/.test(component) || component.startsWith("[")) return void 0;
    }
    if (isGlob) seenGlob = true;
    if (!seenGlob) fixed.push(component);
  }
  const directory = fixed.join("/");
  return directory === "" ? pattern.startsWith("/") ? "/" : "." : directory;
};
var readPaths = (words) => {
  const paths = [];
  for (const word of words) {
    if (word.tilde) return notReadOnly(`\`${word.source}\` names a home directory`);
    if (word.value === void 0 || word.brace) return notReadOnly(`the path \`${word.source}\` is known only when the command runs`);
    if (word.value === "-") continue;
    if (word.glob) {
      const directory = globDirectory(word.value);
      if (directory === void 0) return notReadOnly(`the pattern \`${word.source}\` may match \`..\``);
      paths.push({ word, path: directory });
    } else {
      paths.push({ word, path: word.value });
    }
  }
  return { _tag: "ReadOnly", paths };
};
var readOnlyCommand = (command) => {
  if (!command.assignments.every(isInertAssignment)) return notReadOnly("an environment assignment may change what the command does");
  if (command.argv.length === 0) return { _tag: "ReadOnly", paths: [] };
  for (const wrapper of command.wrappers) {
    if (!readOnlyWrappers.has(wrapper.name)) return notReadOnly(`\`${wrapper.name}\` is not a read-only wrapper`);
  }
  for (const redirect of command.redirects) {
    if (redirect.kind === "write") return notReadOnly(`\`${redirect.source}\` writes a file`);
  }
  const name = command.name;
  if (name === void 0) return notReadOnly("the command name is built at run time");
  const args2 = command.argv.slice(1);
  if (name === "git") return gitCheck(args2);
  if (name === "find") return findCheck(args2);
  if (name === "command" && args2.length > 0 && ["-v", "-V"].includes(literal(args2[0]) ?? "")) return { _tag: "ReadOnly", paths: [] };
  const spec = Object.hasOwn(table, name) ? table[name] : void 0;
  if (spec === void 0) return notReadOnly(`\`${name}\` is not a known read-only command`);
  if (spec.anyArguments === true) return { _tag: "ReadOnly", paths: [] };
  const parsed = parseOptions(args2, spec.options);
  if (parsed._tag === "Unknown") return notReadOnly(`\`${name} ${parsed.word}\` is not known to be read-only (${parsed.why})`);
  const problem = spec.check?.(parsed.options, parsed.operands);
  if (problem !== void 0) return notReadOnly(`\`${name}\`: ${problem}`);
  if (spec.maxOperands !== void 0 && parsed.operands.length > spec.maxOperands) return notReadOnly(`\`${name}\` with ${parsed.operands.length} operands writes the last`);
  const pathWords = [];
  for (const option2 of parsed.options) {
    if (spec.pathOptions?.includes(option2.name) === true) pathWords.push(wordOfOption(option2));
  }
  const operands = spec.operands ?? "paths";
  if (operands === "paths") pathWords.push(...parsed.operands);
  if (operands === "pattern-then-paths") {
    const patternGiven = parsed.options.some((option2) => ["e", "f", "regexp", "file", "expression"].includes(option2.name));
    pathWords.push(...patternGiven ? parsed.operands : parsed.operands.slice(1));
  }
  return readPaths(pathWords);
};
var readOnlyWrappers = /* @__PURE__ */ new Set(["nice", "timeout", "time", "stdbuf", "command", "builtin", "env", "ionice", "nohup"]);
var readOnly = (analysis) => {
  if (!isAnalysed(analysis)) return notReadOnly(analysis.unanalysable.map((reason) => reason.message).join(" "));
  const written = writes(analysis);
  if (written.length > 0) return notReadOnly(`the command writes ${written.map((word) => `\`${word.source}\``).join(", ")}`);
  const paths = [];
  let changedDirectory = false;
  for (const command of analysis.commands) {
    const verdict = readOnlyCommand(command);
    if (verdict._tag === "NotReadOnly") return verdict;
    for (const path of verdict.paths) {
      if (changedDirectory && !path.path.startsWith("/") && path.path.split("/").includes("..")) {
        return notReadOnly(`\`${path.word.source}\` climbs out of a directory changed to earlier in the command`);
      }
      paths.push(path);
    }
    if (command.name === "cd" || command.name === "pushd" || command.name === "popd") changedDirectory = true;
  }
  for (const redirect of analysis.redirects) {
    if (redirect.kind === "read" && redirect.target !== void 0) {
      const verdict = readPaths([redirect.target]);
      if (verdict._tag === "NotReadOnly") return verdict;
      paths.push(...verdict.paths);
    }
  }
  return { _tag: "ReadOnly", paths };
};
var readOnlyCommandNames = [...Object.keys(table), "git", "find"].sort();

// scratchpad/tmp/try.ts
for (const s of process.argv.slice(2)) {
  const a = await runPromise(analyze(s));
  console.log("== " + s);
  for (const c of a.commands) console.log("  cmd", JSON.stringify(c.argv.map((w) => literal(w) ?? `<${w.source}>`)), c.wrappers.map((w) => w.name).join(","), c.context, c.assignments.map((x) => x.name).join(","));
  for (const r of a.redirects) console.log("  redir", r.kind, r.operator, r.target?.value);
  for (const u of a.unanalysable) console.log("  UNANALYSABLE", u.kind, u.message);
}
for (const s of process.argv.slice(2)) {
  const a = await runPromise(analyze(s));
  console.log("  readOnly:", JSON.stringify(readOnly(a)));
}
