// One register of 8 float lanes: the vocabulary the neighbour kernels (boids grid, finale) are
// written in, and the one run-time choice of instruction set they run on.
//
// A kernel is a template over a lane kind L and says L::Floats, L::load, L::keep, L::sum...:
//   Wide      one 32-byte GCC / Clang vector (AVX2: one register);
//   Split     the same 8 lanes as two 16-byte vectors (the x86-64 baseline, SSE2: GCC turns 32-byte
//             comparisons into scalar code without AVX, 16-byte ones into single instructions;
//             and WebAssembly SIMD, 128 bits wide: Clang legalises a 32-byte comparison's mask
//             through 16-bit lanes and byte stores there, several times slower than Split with
//             the wasm-only permute, bits and sqrt below);
//   Portable  8 floats in an array, for compilers without vector extensions.
// Every kind computes lane for lane the same thing and folds its sums in one fixed order, so a
// kernel gives the same bits on all of them. dispatchLanes (below) builds a kernel three times on
// x86-64 GCC / Clang: for the baseline kind, for Wide with CROWDLAB_LANES_AVX2 (target "avx2") and for
// Wide with CROWDLAB_LANES_AVX512 (the same eight lanes in AVX-512VL's encodings: comparisons into mask
// registers, masked blends, three-input logic; no wider registers), and runs the best the CPU has
// (lanes::level()). No build contracts a * b + c (ISO C++ mode: -ffp-contract=off), so the FMA the
// AVX-512 build may use changes no bits.
// Width-8 vectors cross only always-inline functions, so the psABI note GCC gives for them on
// non-AVX targets concerns no real call (silenced here; files calling into Wide add -Wno-psabi).
#pragma once
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(CROWDLAB_LANES_PORTABLE)
#define CROWDLAB_LANES_VECTOR 1
#define CROWDLAB_LANES_INLINE [[gnu::always_inline]] inline
#define CROWDLAB_LANES_INLINE_LAMBDA __attribute__((always_inline))
#else
#define CROWDLAB_LANES_VECTOR 0
#define CROWDLAB_LANES_INLINE inline
#define CROWDLAB_LANES_INLINE_LAMBDA
#endif

#if CROWDLAB_LANES_VECTOR && defined(__x86_64__) && !defined(__AVX2__)
#define CROWDLAB_LANES_DISPATCH 1
#define CROWDLAB_LANES_AVX2 __attribute__((target("avx2")))
#else
#define CROWDLAB_LANES_DISPATCH 0
#define CROWDLAB_LANES_AVX2
#endif
// The AVX-512 build: not in the sanitizer builds (CROWDLAB_LANES_NO_AVX512), where a third copy of
// every kernel would add minutes to the longest compile and check the same source the AVX2 build does.
// 256-bit registers only (GCC still zeroes some stack arrays with 512-bit stores): on some Intel
// CPUs, 512-bit arithmetic lowers the clock of the whole core.
#if CROWDLAB_LANES_DISPATCH && !defined(CROWDLAB_LANES_NO_AVX512)
#define CROWDLAB_LANES_HAS_AVX512 1
#define CROWDLAB_LANES_AVX512 __attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq,prefer-vector-width=256")))
#else
#define CROWDLAB_LANES_HAS_AVX512 0
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace sim::lanes {

constexpr int kLanes = 8;

// The instruction sets a kernel is built for, in order; the kernels run the highest allowed that the
// CPU (and the build) has.
enum class Level : uint8_t { Baseline, Avx2, Avx512 };
namespace detail {
extern std::atomic<Level> gLevel;  // see level()
}  // namespace detail
// The build the kernels take now. Inline, a relaxed load: every lane kernel asks, once per agent in
// some of them.
inline Level level() { return detail::gLevel.load(std::memory_order_relaxed); }
// True when the kernels take a build beyond the baseline (AVX2 or AVX-512).
inline bool wide() { return level() != Level::Baseline; }
// The highest level this CPU and build run.
Level best();
// The levels this CPU and build run, lowest first (tests compare them all).
std::span<const Level> available();
// Allows at most `highest` (the CPU's best by default), for tests and benchmarks.
void setLevel(Level highest);
// setLevel(best()) or setLevel(Level::Baseline).
void setWide(bool allowed);
// What the kernels run on now: "avx512-x8", "avx2-x8", "sse2-x8" (the x86-64 baseline), "vector-x8" or
// "portable-x8".
const char* name();

// For each set of lanes (bit l for lane l), their indices in order, then zeros: Ops::compressOrder.
struct CompressTable {
  uint32_t order[1 << kLanes][kLanes];
};
constexpr CompressTable makeCompressTable() {
  CompressTable t{};
  for (unsigned bits = 0; bits < (1u << kLanes); ++bits) {
    int k = 0;
    for (int l = 0; l < kLanes; ++l)
      if (bits >> l & 1u) t.order[bits][k++] = uint32_t(l);
  }
  return t;
}
inline constexpr CompressTable kCompressTable = makeCompressTable();

// What every kind shares, written once over the kind's own load, splat, lane access and casts.
// (Signatures say auto and take deduced types: the kind is incomplete where it derives from Ops.)
template <class L>
struct Ops {
  CROWDLAB_LANES_INLINE static auto load(const float* p) {
    typename L::Floats v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  CROWDLAB_LANES_INLINE static auto load(const uint32_t* p) {
    typename L::Ints v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  // 0, 1, ..., kLanes - 1.
  CROWDLAB_LANES_INLINE static auto laneIndex() {
    static constexpr uint32_t kIndex[kLanes] = {0, 1, 2, 3, 4, 5, 6, 7};
    return load(kIndex);
  }
  // True in the first `live` lanes: the register that runs past the end of an array.
  CROWDLAB_LANES_INLINE static auto firstLanes(uint32_t live) { return laneIndex() < L::splat(int32_t(live)); }
  CROWDLAB_LANES_INLINE static auto allLanes() { return L::splat(int32_t(-1)); }
  // v where m is true, +0 elsewhere.
  template <class I, class F>
  CROWDLAB_LANES_INLINE static F keep(I m, F v) {
    return L::asFloats(m & L::asInts(v));
  }
  // a where m is true, b elsewhere.
  template <class I, class F>
  CROWDLAB_LANES_INLINE static F choose(I m, F a, F b) {
    return L::asFloats((m & L::asInts(a)) | (~m & L::asInts(b)));
  }
  // The order that moves the lanes set in `bits` to the front: L::permute(v, compressOrder(bits))
  // and one store write a register's chosen lanes one after another.
  CROWDLAB_LANES_INLINE static auto compressOrder(unsigned bits) { return load(kCompressTable.order[bits & 255u]); }
  // One bit per true lane, lane 0 lowest: each lane's own bit, folded like a sum (the bits are
  // distinct, so the sum is their union); a few shuffles where reading the lanes one by one takes
  // three instructions a lane.
  template <class I>
  CROWDLAB_LANES_INLINE static unsigned bits(I m) {
    static constexpr uint32_t kBit[kLanes] = {1, 2, 4, 8, 16, 32, 64, 128};
    return unsigned(L::sum(m & load(kBit)));
  }
};

#if CROWDLAB_LANES_VECTOR
// 8 lanes in one 32-byte vector.
struct Wide : Ops<Wide> {
  typedef float Floats __attribute__((vector_size(kLanes * sizeof(float))));
  typedef int32_t Ints __attribute__((vector_size(kLanes * sizeof(float))));  // masks: -1 where true, 0 elsewhere

  // Lane 0 copied to every lane. (Not `Floats{} + x`: inlined into a loop of an AVX2 function,
  // GCC builds that from eight inserts, the shuffle from one broadcast.)
  CROWDLAB_LANES_INLINE static Floats splat(float x) { return broadcast<Floats>(x); }
  CROWDLAB_LANES_INLINE static Ints splat(int32_t x) { return broadcast<Ints>(x); }
  template <class V, class T>
  CROWDLAB_LANES_INLINE static V broadcast(T x) {
    V v{};
    v[0] = x;
#if defined(__clang__)
    return __builtin_shufflevector(v, v, 0, 0, 0, 0, 0, 0, 0, 0);
#else
    return __builtin_shuffle(v, Ints{});
#endif
  }
  CROWDLAB_LANES_INLINE static Floats asFloats(Ints v) { return (Floats)v; }
  CROWDLAB_LANES_INLINE static Ints asInts(Floats v) { return (Ints)v; }
  // Lane l of the result is lane index[l] of v (indices 0-7); AVX2: one vpermd.
  template <class V>
  CROWDLAB_LANES_INLINE static V permute(V v, Ints index) {
#if defined(__clang__)
    V r;
    for (int l = 0; l < kLanes; ++l) r[l] = v[index[l] & 7];
    return r;
#else
    return __builtin_shuffle(v, index);
#endif
  }
#if defined(__x86_64__)
  // A mask lane is -1 or 0, so its sign bit is the lane's truth, the bit Ops::bits sums: SSE's
  // movmskps takes four of them in one instruction, on every x86-64 (the fold takes seven
  // instructions for eight lanes; this one, with the upper half's extract, five). Not AVX's
  // vmovmskps: GCC refuses an AVX builtin in the helpers the kernels inline before they reach the
  // AVX2 function, and at -O2 some Wide code stays outside it, in a function built for the baseline.
  template <class I>
  CROWDLAB_LANES_INLINE static unsigned bits(I m) {
    typedef float Float4 __attribute__((vector_size(4 * sizeof(float))));
    const Floats f = (Floats)m;
    Float4 lo, hi;
    std::memcpy(&lo, &f, sizeof lo);
    std::memcpy(&hi, reinterpret_cast<const char*>(&f) + sizeof lo, sizeof hi);
    return unsigned(__builtin_ia32_movmskps(lo)) | unsigned(__builtin_ia32_movmskps(hi)) << 4;
  }
#endif
  CROWDLAB_LANES_INLINE static float lane(Floats v, int l) { return v[l]; }
  CROWDLAB_LANES_INLINE static int32_t lane(Ints v, int l) { return v[l]; }
  // The register whose lane l is f(l).
  template <class F>
  CROWDLAB_LANES_INLINE static Floats fromLanes(F&& f) {
    return Floats{f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7)};
  }
  // The IEEE square root per lane (exact: every kind gives the same bits).
  CROWDLAB_LANES_INLINE static Floats sqrt(Floats v) {
    for (int l = 0; l < kLanes; ++l) v[l] = std::sqrt(v[l]);  // one instruction without errno
    return v;
  }
  // The lanes folded in halves: lane l with l ^ 4, then ^ 2, then ^ 1.
  template <class V>
  CROWDLAB_LANES_INLINE static auto sum(V v) {
#if defined(__clang__)
    v += __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3);
    v += __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5);
    v += __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
#else
    const Ints index = laneIndex();
    v += __builtin_shuffle(v, index ^ 4);
    v += __builtin_shuffle(v, index ^ 2);
    v += __builtin_shuffle(v, index ^ 1);
#endif
    return v[0];
  }
};

// The same 8 lanes as two 16-byte vectors: lanes 0-3 in lo, 4-7 in hi.
template <class Half>
struct Halves {
  Half lo, hi;
};
#define CROWDLAB_LANES_HALVES(op)                                                                   \
  template <class H>                                                                                \
  CROWDLAB_LANES_INLINE auto operator op(const Halves<H>& a, const Halves<H>& b) {                  \
    return Halves<decltype(a.lo op b.lo)>{a.lo op b.lo, a.hi op b.hi};                              \
  }
CROWDLAB_LANES_HALVES(+)
CROWDLAB_LANES_HALVES(-)
CROWDLAB_LANES_HALVES(*)
CROWDLAB_LANES_HALVES(/)
CROWDLAB_LANES_HALVES(&)
CROWDLAB_LANES_HALVES(|)
CROWDLAB_LANES_HALVES(^)
#undef CROWDLAB_LANES_HALVES
// A comparison's lanes as int32_t, whatever integer type of that size the compiler picks for them
// (on wasm32 Clang picks long), so that masks from every comparison are one type.
typedef int32_t MaskHalf __attribute__((vector_size(4 * sizeof(float))));
#define CROWDLAB_LANES_HALVES_COMPARE(op)                                                           \
  template <class H>                                                                                \
  CROWDLAB_LANES_INLINE Halves<MaskHalf> operator op(const Halves<H>& a, const Halves<H>& b) {      \
    return {(MaskHalf)(a.lo op b.lo), (MaskHalf)(a.hi op b.hi)};                                    \
  }
CROWDLAB_LANES_HALVES_COMPARE(<)
CROWDLAB_LANES_HALVES_COMPARE(>)
CROWDLAB_LANES_HALVES_COMPARE(<=)
CROWDLAB_LANES_HALVES_COMPARE(>=)
CROWDLAB_LANES_HALVES_COMPARE(==)
CROWDLAB_LANES_HALVES_COMPARE(!=)
#undef CROWDLAB_LANES_HALVES_COMPARE
template <class H>
CROWDLAB_LANES_INLINE Halves<H> operator-(const Halves<H>& a) { return {-a.lo, -a.hi}; }
template <class H>
CROWDLAB_LANES_INLINE Halves<H> operator~(const Halves<H>& a) { return {~a.lo, ~a.hi}; }
template <class H>
CROWDLAB_LANES_INLINE Halves<H>& operator+=(Halves<H>& a, const Halves<H>& b) { return a = a + b; }
template <class H>
CROWDLAB_LANES_INLINE Halves<H>& operator-=(Halves<H>& a, const Halves<H>& b) { return a = a - b; }

struct Split : Ops<Split> {
  typedef float Float4 __attribute__((vector_size(4 * sizeof(float))));
  using Int4 = MaskHalf;
  using Floats = Halves<Float4>;
  using Ints = Halves<Int4>;

  CROWDLAB_LANES_INLINE static Floats splat(float x) { return {Float4{} + x, Float4{} + x}; }
  CROWDLAB_LANES_INLINE static Ints splat(int32_t x) { return {Int4{} + x, Int4{} + x}; }
  CROWDLAB_LANES_INLINE static Floats asFloats(Ints v) { return {(Float4)v.lo, (Float4)v.hi}; }
  CROWDLAB_LANES_INLINE static Ints asInts(Floats v) { return {(Int4)v.lo, (Int4)v.hi}; }
  template <class V>
  CROWDLAB_LANES_INLINE static V permute(V v, Ints index) {
#if defined(__wasm_simd128__)
    // Two byte shuffles (i8x16.swizzle) a half: lane i's four bytes are bytes 4i..4i+3 of lo, or of
    // hi less 16; a byte index past 15 (or, less 16, "negative") gives 0, so the two OR together.
    typedef signed char Bytes __attribute__((vector_size(16)));
    auto half = [&](Int4 i) CROWDLAB_LANES_INLINE_LAMBDA {
      const Int4 fromLo = (i & 7) * 0x04040404 + 0x03020100, fromHi = fromLo - 0x10101010;
      return (Int4)(__builtin_wasm_swizzle_i8x16((Bytes)v.lo, (Bytes)fromLo) |
                    __builtin_wasm_swizzle_i8x16((Bytes)v.hi, (Bytes)fromHi));
    };
    using H = decltype(v.lo);
    return V{(H)half(index.lo), (H)half(index.hi)};
#else
    auto pick = [&](int from) CROWDLAB_LANES_INLINE_LAMBDA { return from < 4 ? v.lo[from] : v.hi[from - 4]; };
    V r;
    for (int l = 0; l < 4; ++l) {
      r.lo[l] = pick(index.lo[l] & 7);
      r.hi[l] = pick(index.hi[l] & 7);
    }
    return r;
#endif
  }
#if defined(__wasm_simd128__)
  // WebAssembly has the sign bits of a register's lanes in one instruction (i32x4.bitmask); a mask
  // lane is -1 or 0, so its sign bit is the lane's truth, the bit Ops::bits sums.
  CROWDLAB_LANES_INLINE static unsigned bits(Ints m) {
    return unsigned(__builtin_wasm_bitmask_i32x4(m.lo)) | unsigned(__builtin_wasm_bitmask_i32x4(m.hi)) << 4;
  }
#elif defined(__x86_64__)
  // So has SSE (movmskps), on every x86-64.
  CROWDLAB_LANES_INLINE static unsigned bits(Ints m) {
    return unsigned(__builtin_ia32_movmskps((Float4)m.lo)) | unsigned(__builtin_ia32_movmskps((Float4)m.hi)) << 4;
  }
#endif
  CROWDLAB_LANES_INLINE static float lane(Floats v, int l) { return l < 4 ? v.lo[l] : v.hi[l - 4]; }
  CROWDLAB_LANES_INLINE static int32_t lane(Ints v, int l) { return l < 4 ? v.lo[l] : v.hi[l - 4]; }
  template <class F>
  CROWDLAB_LANES_INLINE static Floats fromLanes(F&& f) {
    return {Float4{f(0), f(1), f(2), f(3)}, Float4{f(4), f(5), f(6), f(7)}};
  }
  CROWDLAB_LANES_INLINE static Floats sqrt(Floats v) {
#if defined(__wasm_simd128__)
    return {__builtin_wasm_sqrt_f32x4(v.lo), __builtin_wasm_sqrt_f32x4(v.hi)};  // IEEE, as std::sqrt
#else
    for (int l = 0; l < 4; ++l) {
      v.lo[l] = std::sqrt(v.lo[l]);
      v.hi[l] = std::sqrt(v.hi[l]);
    }
    return v;
#endif
  }
  // Wide's order: lane l with l ^ 4 (lo + hi), then ^ 2, then ^ 1.
  template <class V>
  CROWDLAB_LANES_INLINE static auto sum(V v) {
    auto q = v.lo + v.hi;
#if defined(__clang__)
    q += __builtin_shufflevector(q, q, 2, 3, 0, 1);
    q += __builtin_shufflevector(q, q, 1, 0, 3, 2);
#else
    const Int4 index{0, 1, 2, 3};
    q += __builtin_shuffle(q, index ^ 2);
    q += __builtin_shuffle(q, index ^ 1);
#endif
    return q[0];
  }
};
#endif

// Without vector extensions: the same lanes, one at a time.
template <class T>
struct Pack {
  T lane[kLanes];
};
#define CROWDLAB_LANES_PACK(op)                                                   \
  template <class T>                                                              \
  inline auto operator op(const Pack<T>& a, const Pack<T>& b) {                   \
    using Out = decltype(a.lane[0] op b.lane[0]);                                 \
    constexpr bool kCompare = std::is_same_v<Out, bool>;                          \
    Pack<std::conditional_t<kCompare, int32_t, T>> r;                             \
    for (int l = 0; l < kLanes; ++l) {                                            \
      if constexpr (kCompare) r.lane[l] = (a.lane[l] op b.lane[l]) ? -1 : 0;      \
      else r.lane[l] = T(a.lane[l] op b.lane[l]);                                 \
    }                                                                             \
    return r;                                                                     \
  }
CROWDLAB_LANES_PACK(+)
CROWDLAB_LANES_PACK(-)
CROWDLAB_LANES_PACK(*)
CROWDLAB_LANES_PACK(/)
CROWDLAB_LANES_PACK(&)
CROWDLAB_LANES_PACK(|)
CROWDLAB_LANES_PACK(^)
CROWDLAB_LANES_PACK(<)
CROWDLAB_LANES_PACK(>)
CROWDLAB_LANES_PACK(<=)
CROWDLAB_LANES_PACK(>=)
CROWDLAB_LANES_PACK(==)
CROWDLAB_LANES_PACK(!=)
#undef CROWDLAB_LANES_PACK
template <class T>
inline Pack<T> operator-(const Pack<T>& a) {
  Pack<T> r;
  for (int l = 0; l < kLanes; ++l) r.lane[l] = -a.lane[l];
  return r;
}
inline Pack<int32_t> operator~(const Pack<int32_t>& a) {
  Pack<int32_t> r;
  for (int l = 0; l < kLanes; ++l) r.lane[l] = ~a.lane[l];
  return r;
}
template <class T>
inline Pack<T>& operator+=(Pack<T>& a, const Pack<T>& b) { return a = a + b; }
template <class T>
inline Pack<T>& operator-=(Pack<T>& a, const Pack<T>& b) { return a = a - b; }

struct Portable : Ops<Portable> {
  using Floats = Pack<float>;
  using Ints = Pack<int32_t>;

  template <class T>
  static Pack<T> splatOf(T x) {
    Pack<T> v;
    for (int l = 0; l < kLanes; ++l) v.lane[l] = x;
    return v;
  }
  static Floats splat(float x) { return splatOf(x); }
  static Ints splat(int32_t x) { return splatOf(x); }
  static Floats asFloats(Ints v) { return std::bit_cast<Floats>(v); }
  static Ints asInts(Floats v) { return std::bit_cast<Ints>(v); }
  template <class V>
  static V permute(V v, Ints index) {
    V r;
    for (int l = 0; l < kLanes; ++l) r.lane[l] = v.lane[index.lane[l] & 7];
    return r;
  }
  static float lane(Floats v, int l) { return v.lane[l]; }
  static int32_t lane(Ints v, int l) { return v.lane[l]; }
  template <class F>
  static Floats fromLanes(F&& f) {
    Floats v;
    for (int l = 0; l < kLanes; ++l) v.lane[l] = f(l);
    return v;
  }
  static Floats sqrt(Floats v) {
    for (int l = 0; l < kLanes; ++l) v.lane[l] = std::sqrt(v.lane[l]);
    return v;
  }
  template <class V>
  static auto sum(V v) {
    for (int half = kLanes / 2; half > 0; half /= 2) {
      V moved;
      for (int l = 0; l < kLanes; ++l) moved.lane[l] = v.lane[l ^ half];
      v += moved;
    }
    return v.lane[0];
  }
};

// The kind a plain build of a kernel uses; the AVX2 build uses Wide.
#if CROWDLAB_LANES_VECTOR && (defined(__AVX__) || !(defined(__x86_64__) || defined(__wasm__)))
using Baseline = Wide;
#elif CROWDLAB_LANES_VECTOR
using Baseline = Split;  // also WebAssembly: its SIMD is 128 bits wide (see Split)
#else
using Baseline = Portable;
#endif
#if CROWDLAB_LANES_VECTOR
using Avx2 = Wide;
#else
using Avx2 = Portable;
#endif

// The lane kind a kernel is built for, passed to the kernel as a value: `typename decltype(kind)::type`.
template <class L>
struct Kind {
  using type = L;
};

// Builds `kernel` for the baseline kind and (with CROWDLAB_LANES_AVX2 / _AVX512) for Avx2 in each wider
// instruction set, and runs the one level() picks: the one place a kernel's instruction set is chosen.
// The kernel is a generic lambda marked CROWDLAB_LANES_INLINE_LAMBDA taking a Kind, so its body is
// compiled inside the target's function:
//   lanes::dispatchLanes([&](auto kind) CROWDLAB_LANES_INLINE_LAMBDA {
//     solveLanes<typename decltype(kind)::type>(...);
//   });
// The choice is inlined into the caller and each build is a call of its own: a kernel called once per
// agent pays one call, not two.
template <class Kernel>
CROWDLAB_LANES_AVX2 void runAvx2(Kernel& kernel) {
  kernel(Kind<Avx2>{});
}
#if CROWDLAB_LANES_HAS_AVX512
template <class Kernel>
CROWDLAB_LANES_AVX512 void runAvx512(Kernel& kernel) {
  kernel(Kind<Avx2>{});  // the same kind, Wide: AVX-512VL encodes its 32-byte operations better
}
#endif
template <class Kernel>
[[gnu::noinline]] void runBaseline(Kernel& kernel) {
  kernel(Kind<Baseline>{});
}
template <class Kernel>
CROWDLAB_LANES_INLINE void dispatchLanes(Kernel&& kernel) {
  const Level l = level();
#if CROWDLAB_LANES_HAS_AVX512
  if (l == Level::Avx512) {
    runAvx512(kernel);
    return;
  }
#endif
  if (l != Level::Baseline) runAvx2(kernel);
  else runBaseline(kernel);
}

// exp(x) from float arithmetic alone, no library call: the same operations in the same order for one
// float (expOne) and for a register (exp<L>), so a kernel and its scalar twin give the same bits on
// every build. 2^(x log2 e) = 2^k 2^f, with k the nearest integer (rounded by adding 1.5 * 2^23, whose
// float spacing is 1) and f in [-1/2, 1/2]; 2^f by its Taylor series to degree 6 (relative error
// below 3e-7); 2^k a float built from its exponent bits. x log2 e is held to [-126, 127] (NaN to
// -126): exp(-87), about 1e-38, stands for anything smaller, and nothing overflows.
namespace expParts {
inline constexpr float kLog2e = 1.44269504f, kRound = 12582912.0f, kLow = -126.0f, kHigh = 127.0f;
// (ln 2)^n / n!
inline constexpr float kTaylor[7] = {1.0f,          0.693147181f,   0.240226507f,  0.0555041087f,
                                     0.00961812911f, 0.00133335581f, 0.000154035304f};
inline constexpr int32_t kBias = 127, kExponentOne = 1 << 23;
}  // namespace expParts

inline float expOne(float x) {
  using namespace expParts;
  float t = x * kLog2e;
  t = t > kLow ? t : kLow;
  t = t < kHigh ? t : kHigh;
  const float big = t + kRound, k = big - kRound, f = t - k;
  float p = kTaylor[6];
  for (int n = 5; n >= 0; --n) p = p * f + kTaylor[n];
  const int32_t e = std::bit_cast<int32_t>(big) - std::bit_cast<int32_t>(kRound) + kBias;  // 1..254
  return p * std::bit_cast<float>(e * kExponentOne);
}

template <class L>
CROWDLAB_LANES_INLINE typename L::Floats exp(typename L::Floats x) {
  using namespace expParts;
  const auto low = L::splat(kLow), high = L::splat(kHigh), round = L::splat(kRound);
  auto t = x * L::splat(kLog2e);
  t = L::choose(t > low, t, low);
  t = L::choose(t < high, t, high);
  const auto big = t + round, k = big - round, f = t - k;
  auto p = L::splat(kTaylor[6]);
  for (int n = 5; n >= 0; --n) p = p * f + L::splat(kTaylor[n]);
  const auto e = L::asInts(big) - L::asInts(round) + L::splat(kBias);
  return p * L::asFloats(e * L::splat(kExponentOne));
}

}  // namespace sim::lanes

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
