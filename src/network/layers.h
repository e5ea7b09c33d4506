// The closed set of layer kinds of the Network and their parameters.
//
// One small parameter struct per kind. `LayerParams` is a variant whose
// alternatives are in `LayerKind` order, so a layer's kind is its params'
// index; adding a kind breaks the static_asserts until every per-kind table
// (names, shape inference, reference kernels) is updated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "atenrt/dtype.h"
#include "atenrt/plugin_layer.h"
#include "atenrt/tensor.h"

namespace atenrt::network {

using Dims = std::vector<std::int64_t>;
// A dim whose size is only known at run time.
inline constexpr std::int64_t kDynamicDim = -1;

enum class LayerKind : std::uint8_t {
  Activation,     // in: x                       out: y (same dtype/dims)
  Elementwise,    // in: a, b (broadcast)        out: y
  Unary,          // in: x                       out: y
  MatMul,         // in: a, b                    out: y
  Convolution,    // in: x, weight[, bias]       out: y
  Deconvolution,  // in: x, weight[, bias]       out: y
  Pooling,        // in: x                       out: y
  Softmax,        // in: x                       out: y
  Normalization,  // in: x, scale, bias[, mean, var (batch)]   out: y
  Reduce,         // in: x                       out: y
  Shuffle,        // in: x[, shape (int64 1-d)]  out: y
  Slice,          // in: x                       out: y
  Concatenation,  // in: x0, x1, ...             out: y
  Gather,         // in: data, indices           out: y
  Scatter,        // in: data, indices, updates  out: y
  Select,         // in: cond, a, b (broadcast)  out: y
  Constant,       // in: -                       out: y
  Cast,           // in: x                       out: y
  Padding,        // in: x                       out: y
  Resize,         // in: x                       out: y
  TopK,           // in: x                       out: values, indices (int64)
  Cumulative,     // in: x                       out: y
  Shape,          // in: x                       out: int64[rank]
  Fill,           // in: -[, shape (int64 1-d)]  out: y
  Plugin,         // in: any                     out: what the plugin kernel infers
  LinearAlgebra,  // in: matrices [*, m, n]      out: per LinalgOp (below)
  DataDependent,  // in: per DataDependentOp     out: sizes known only from the input values
  Check,          // in: cond (bool)             out: y = cond; an InputError when any element is false
};
inline constexpr int kLayerKindCount = 28;

std::string_view layer_kind_name(LayerKind kind);  // "Convolution"

// ---------------------------------------------------------------- activation
enum class ActivationOp : std::uint8_t {
  Relu,
  Sigmoid,
  Tanh,
  LeakyRelu,    // alpha = negative slope
  Elu,          // alpha (torch elu's alpha; scale = input_scale = 1)
  Selu,         // fixed torch constants
  Softplus,     // alpha = beta, beta = threshold (torch softplus(beta, threshold))
  Clip,         // alpha = min, beta = max (hardtanh, relu6, clamp)
  GeluErf,
  GeluTanh,
  HardSigmoid,  // max(0, min(1, alpha*x + beta)); torch: alpha = 1/6, beta = 1/2
  HardSwish,    // x * relu6(x + 3) / 6
  Silu,         // x * sigmoid(x)
  Mish,         // x * tanh(softplus(x))
};
inline constexpr int kActivationOpCount = 14;
std::string_view activation_op_name(ActivationOp op);

struct ActivationParams {
  ActivationOp op = ActivationOp::Relu;
  double alpha = 0.0;
  double beta = 0.0;
};

// ---------------------------------------------------------------- elementwise
// Both inputs have the same dtype (the converter casts to the promoted type);
// comparisons and logical ops give bool. Integer semantics are PyTorch's.
enum class ElementwiseOp : std::uint8_t {
  Add,
  Sub,
  Mul,
  Div,        // true division; floating dtypes only (cast integers first)
  Pow,
  Min,
  Max,
  FloorDiv,   // rounds toward -inf (torch floor_divide / div rounding_mode='floor')
  TruncDiv,   // rounds toward zero (div rounding_mode='trunc')
  Remainder,  // sign of the divisor (torch remainder, Python %)
  Fmod,       // sign of the dividend (torch fmod, C fmod)
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  And,  // logical: non-zero is true
  Or,
  Xor,
  BitAnd,  // bitwise, integer dtypes only (bool uses the logical ops)
  BitOr,
  BitXor,
  // Special functions of two arguments (reference/special_functions.h; floating dtypes only).
  Zeta,       // Hurwitz zeta(a, b)
  Igamma,     // regularized lower incomplete gamma P(a, b)
  Igammac,    // regularized upper incomplete gamma Q(a, b)
  NextAfter,  // the next value of a's dtype after a toward b
  // Orthogonal polynomials of x = a and degree n = b (truncated to an integer).
  ChebyshevT,
  ChebyshevU,
  ChebyshevV,
  ChebyshevW,
  ShiftedChebyshevT,
  ShiftedChebyshevU,
  ShiftedChebyshevV,
  ShiftedChebyshevW,
  HermiteH,
  HermiteHe,
  LaguerreL,
  LegendreP,
  ShiftLeft,   // integer dtypes only: as torch 1.13 on x86 (reference/scalar_math.h shift())
  ShiftRight,  // arithmetic for signed dtypes
};
inline constexpr int kElementwiseOpCount = 41;
std::string_view elementwise_op_name(ElementwiseOp op);
bool is_comparison_or_logical(ElementwiseOp op);  // output is bool
bool is_special_function(ElementwiseOp op);       // Zeta to LegendreP: floating inputs only

struct ElementwiseParams {
  ElementwiseOp op = ElementwiseOp::Add;
};

// ---------------------------------------------------------------- unary
enum class UnaryOp : std::uint8_t {
  Exp,
  Log,
  Log2,
  Log10,
  Log1p,
  Expm1,
  Sqrt,
  Rsqrt,
  Abs,
  Neg,
  Reciprocal,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Asinh,
  Acosh,
  Atanh,
  Erf,
  Floor,
  Ceil,
  Round,  // half to even, as torch.round
  Trunc,
  Sign,
  Not,    // logical not: bool output
  IsNan,  // bool output
  IsInf,  // bool output
  // Special functions (reference formulas in reference/scalar_math.h; no oneDNN kernel).
  Lgamma,
  Digamma,
  Erfinv,
  Erfc,
  I0,
  I0e,  // exp(-|x|) I0(x)
  I1,
  I1e,  // exp(-|x|) I1(x)
  BesselJ0,
  BesselJ1,
  BesselY0,
  BesselY1,
  K0,   // modified Bessel function of the second kind
  K1,
  K0e,  // exp(x) K0(x)
  K1e,  // exp(x) K1(x)
  SphericalBesselJ0,
  AiryAi,
  Erfcx,          // exp(x^2) erfc(x)
  Trigamma,       // polygamma(1, x)
  FrexpMantissa,  // torch.frexp's mantissa in [0.5, 1), and 0, inf, NaN as they are
  FrexpExponent,  // torch.frexp's exponent, as a number of x's dtype (0 for 0, inf, NaN)
};
inline constexpr int kUnaryOpCount = 53;
std::string_view unary_op_name(UnaryOp op);
// Ops defined on integer (and bool) inputs as well as floating ones; the
// others need a floating input.
bool unary_takes_integers(UnaryOp op);

struct UnaryParams {
  UnaryOp op = UnaryOp::Exp;
};

// ---------------------------------------------------------------- matmul
// torch.matmul semantics: batch dims broadcast; a 1-d `a` is a row vector and
// a 1-d `b` a column vector, their unit dim dropped from the output. The
// transposes swap the last two dims of a 2-d-or-more operand before multiplying.
struct MatMulParams {
  bool transpose_a = false;
  bool transpose_b = false;
};

// ---------------------------------------------------------------- convolution
// x: [N, C, *spatial] with 1, 2 or 3 spatial dims. All vectors have one entry
// per spatial dim. Weight as torch: conv [Cout, Cin/groups, *k];
// deconv [Cin, Cout/groups, *k]. Bias (optional third input): [Cout].
struct ConvolutionParams {
  Dims stride;
  Dims padding_pre;   // left/top/front
  Dims padding_post;  // right/bottom/back (torch: equal to padding_pre)
  Dims dilation;
  std::int64_t groups = 1;
};

struct DeconvolutionParams {
  Dims stride;
  Dims padding_pre;
  Dims padding_post;
  Dims dilation;
  Dims output_padding;  // extra size at the end of each spatial dim
  std::int64_t groups = 1;
};

// ---------------------------------------------------------------- pooling
enum class PoolingOp : std::uint8_t { Max, Average };

// x: [N, C, *spatial] (or [C, *spatial]; the spatial rank is kernel.size(),
// or output_size.size() when adaptive). Adaptive pooling uses torch's
// start = floor(i*in/out), end = ceil((i+1)*in/out) windows.
struct PoolingParams {
  PoolingOp op = PoolingOp::Max;
  bool adaptive = false;
  Dims output_size;  // adaptive only
  Dims kernel;       // fixed windows only
  Dims stride;
  Dims padding_pre;
  Dims padding_post;
  Dims dilation;  // max only; empty means 1s
  bool ceil_mode = false;
  bool count_include_pad = true;           // average only
  std::optional<std::int64_t> divisor_override;  // average only
};

// ---------------------------------------------------------------- softmax
struct SoftmaxParams {
  std::int64_t axis = -1;  // negative counts from the end
  bool log = false;        // log_softmax
};

// ---------------------------------------------------------------- normalization
enum class NormalizationOp : std::uint8_t {
  Layer,     // over dims [axis, rank); scale/bias have dims x.dims[axis:]
  Batch,     // inference: per channel (dim 1) with running mean/var inputs
  Group,     // num_groups groups of channels; scale/bias [C]
  Instance,  // per (n, c) over spatial dims; scale/bias [C]
};
std::string_view normalization_op_name(NormalizationOp op);

struct NormalizationParams {
  NormalizationOp op = NormalizationOp::Layer;
  double epsilon = 1e-5;
  std::int64_t axis = -1;          // layer only: first normalized dim
  std::int64_t num_groups = 1;     // group only
};

// ---------------------------------------------------------------- reduce
enum class ReduceOp : std::uint8_t { Sum, Mean, Prod, Max, Min, ArgMax, ArgMin, Any, All };
std::string_view reduce_op_name(ReduceOp op);

// Empty axes reduce every dim. ArgMax/ArgMin take exactly one axis and give
// int64 (first index of the extreme, NaN counts as the extreme as in torch).
// Sum/Prod of integers or bool give int64; Mean needs a floating dtype;
// Any/All give bool.
struct ReduceParams {
  ReduceOp op = ReduceOp::Sum;
  Dims axes;
  bool keep_dims = false;
};

// ---------------------------------------------------------------- shuffle
// y = permute(reshape(permute(x, first_perm), reshape_dims), second_perm).
// Empty perms are identities. In reshape_dims one entry may be -1 ("infer",
// as in torch.reshape). With a second input (int64 1-d shape tensor) the
// reshape dims come from its values at run time instead; reshape_dims, when
// given then, are the dims known before the run (-1 where the shape tensor
// decides), so that layers downstream see e.g. the heads of [s0, s1, 4, 64].
struct ShuffleParams {
  Dims first_perm;
  bool reshape = false;
  Dims reshape_dims;
  Dims second_perm;
};

// ---------------------------------------------------------------- slice
// Normalized, one entry per dim of x: element i of dim d of y is element
// start[d] + i*step[d] of x; size[d] elements. Steps may be negative (flip).
// size[d] = -1 with start 0 and step 1 is the whole dim, whatever its size (a
// dim that was dynamic when the layer was made). Use Network::add_slice to get Python slice semantics (negative and
// out-of-range bounds).
struct SliceParams {
  Dims start;
  Dims size;
  Dims step;
};

// ---------------------------------------------------------------- concat
struct ConcatenationParams {
  std::int64_t axis = 0;
};

// ---------------------------------------------------------------- gather/scatter
enum class GatherMode : std::uint8_t {
  Axis,      // index_select / embedding / take along one axis:
             // y.dims = data.dims[:axis] + indices.dims + data.dims[axis+1:]
  Elements,  // torch.gather: indices has data's rank, y.dims = indices.dims
};

// Indices are int64 or int32; negative indices count from the end;
// out-of-range indices are an InputError at run time.
struct GatherParams {
  GatherMode mode = GatherMode::Axis;
  std::int64_t axis = 0;
};

// Max/Min keep NaN: a NaN written or already there stays (torch's scatter_reduce amax/amin).
enum class ScatterReduce : std::uint8_t { None, Add, Mul, Max, Min };

// torch.scatter / scatter_add along `axis`: y = data, then for every index
// position p of `indices`: y[..p with axis replaced by indices[p]..] (op)= updates[p].
// indices and updates have the same dims. With duplicate indices and
// ScatterReduce::None the last write wins.
struct ScatterParams {
  std::int64_t axis = 0;
  ScatterReduce reduce = ScatterReduce::None;
};

// ---------------------------------------------------------------- select
struct SelectParams {};  // where(cond, a, b); cond is bool; a and b same dtype

// ---------------------------------------------------------------- constant
struct ConstantParams {
  Tensor value;  // stored contiguous
};

// ---------------------------------------------------------------- cast
// Float→int truncates toward zero; to bool is `!= 0` (as torch .to()).
struct CastParams {
  DType to = DType::Float32;
};

// ---------------------------------------------------------------- padding
enum class PaddingMode : std::uint8_t { Constant, Reflect, Replicate, Circular };

// One entry per dim of x (0 for untouched dims). Constant padding may be
// negative (crops), as torch.constant_pad_nd.
struct PaddingParams {
  PaddingMode mode = PaddingMode::Constant;
  Dims pre;
  Dims post;
  double value = 0.0;
};

// ---------------------------------------------------------------- resize
enum class ResizeMode : std::uint8_t {
  Nearest,       // torch 'nearest' (src = floor(dst * scale))
  NearestExact,  // torch 'nearest-exact' (src = floor((dst + .5) * scale))
  Linear,        // linear / bilinear / trilinear
  Cubic,         // bicubic (A = -0.75), 2 spatial dims
};

// x: [N, C, *spatial]; output_size has one entry per spatial dim. `scales`
// (optional, one per spatial dim) are torch's scale_factor values: when given,
// coordinates map with 1/scale instead of in/out (torch's behaviour when
// recompute_scale_factor is not set). With a second input (int64 [spatial],
// the output's spatial sizes known at run time: F.interpolate(size=x.shape[-2:])
// over dynamic dims) the sizes come from its values and output_size is -1s.
struct ResizeParams {
  ResizeMode mode = ResizeMode::Nearest;
  Dims output_size;
  std::vector<double> scales;
  bool align_corners = false;  // linear and cubic only
};

// ---------------------------------------------------------------- topk / sort
// Outputs (values, int64 indices) along `axis`, k of them, sorted
// (descending when largest; NaN ranks above every number). k = dim size gives
// sort. Which of equal values comes first is `ties`:
//   IndexOrder  the lower index first (stable sort, median, kthvalue);
//   TorchTopK   torch.topk's CPU order: (value, index) pairs compared by value
//               alone, std::partial_sort when 64k <= n, else std::nth_element
//               at k-1 and std::sort of the first k-1 (TopKImpl.h);
//   TorchSort   torch.sort(stable=False)'s CPU order: std::sort of the pairs;
//   TorchTopKUnsorted  torch.topk(sorted=False): TorchTopK without the std::sort
//               (the k found, in the order std::nth_element leaves them).
// The same libstdc++ algorithms on the same input give torch's permutation.
enum class TopKTies : std::uint8_t { IndexOrder, TorchTopK, TorchSort, TorchTopKUnsorted };
inline constexpr int kTopKTiesCount = 4;
struct TopKParams {
  std::int64_t k = 1;
  std::int64_t axis = -1;
  bool largest = true;
  TopKTies ties = TopKTies::IndexOrder;
};

// ---------------------------------------------------------------- cumulative
enum class CumulativeOp : std::uint8_t { Sum, Prod };
// Integers and bool accumulate in (and output) int64, as torch.cumsum.
struct CumulativeParams {
  CumulativeOp op = CumulativeOp::Sum;
  std::int64_t axis = 0;
  bool exclusive = false;
  bool reverse = false;
};

// ---------------------------------------------------------------- shape
struct ShapeParams {};  // y = int64 tensor of x's dims, known at run time

// ---------------------------------------------------------------- fill
enum class FillOp : std::uint8_t {
  Constant,  // every element = value (torch.full / zeros / ones)
  Iota,      // value + delta * index along `axis` (torch.arange on 1-d)
};
// Dims from `dims`, or from the values of an optional int64 1-d shape input.
struct FillParams {
  FillOp op = FillOp::Constant;
  DType dtype = DType::Float32;
  Dims dims;
  double value = 0.0;
  double delta = 1.0;
  std::int64_t axis = 0;
};

// ---------------------------------------------------------------- plugin
// A layer computed by a kernel that a plugin registered (atenrt/plugin_layer.h,
// network/plugin_kernels.h): shape inference and execution ask the kernel
// named `kernel` at `version`. `plugin` is the name of the plugin that
// registered it when the layer was made: messages name it when that kernel is
// not loaded (any plugin registering the same kernel and version serves).
struct PluginParams {
  std::string kernel;  // "namespace::name"
  std::int64_t version = 1;
  std::string plugin;
  PluginAttributes attributes;
};

// ---------------------------------------------------------------- linear algebra
// Batched over leading dims: every input has the same leading (batch) dims
// (converters broadcast them first); float32 or float64, all inputs one dtype
// except pivots (int32). Results are PyTorch's (same LAPACK routines, same
// conventions); pivots are LAPACK's 1-based ipiv, info is LAPACK's info.
enum class LinalgOp : std::uint8_t {
  Inverse,             // A[n,n] -> inv[n,n], info[]                   (linalg_inv_ex)
  Solve,               // A[n,n], B[n,k] (right: B[k,n]) -> X, LU, pivots[n], info
                       //   (_linalg_solve_ex: LU is the factorization of A^T, as PyTorch's)
  LuFactor,            // A[m,n] -> LU[m,n], pivots[min], info
  Lu,                  // A[m,n] -> P[m,m], L[m,k], U[k,n]   (k = min(m, n))
  LuUnpack,            // LU[m,n], pivots[k] -> P, L, U  (vectors: unpack L/U, pivots: unpack P; else [0])
  LuSolve,             // LU[n,n], pivots[n], B -> X      (left, transpose = adjoint)
  Cholesky,            // A[n,n] -> L (U when upper), info
  CholeskySolve,       // B[n,k], L[n,n] -> X             (upper)
  CholeskyInverse,     // L[n,n] -> inverse of L L^T (U^T U when upper)
  Qr,                  // A[m,n] -> Q, R  (full: 'complete'; vectors false: 'r', Q is [0])
  Svd,                 // A[m,n] -> U, S[k], Vh  (full: full_matrices; vectors false: U, Vh [0])
  Eigh,                // A[n,n] -> eigenvalues[n] (ascending), V (upper: UPLO 'U'; vectors)
  Det,                 // A[n,n] -> det[], LU (of A^T, as PyTorch's), pivots
  Slogdet,             // A[n,n] -> sign[], logabsdet[], LU (of A^T), pivots
  TriangularSolve,     // A[n,n], B -> X  (upper, left, transpose, unit_diagonal)
  LdlFactor,           // A[n,n] -> LD, pivots[n], info   (upper)
  LdlSolve,            // LD[n,n], pivots[n], B[n,k] -> X (upper)
  Geqrf,               // A[m,n] -> a[m,n], tau[min]
  HouseholderProduct,  // A[m,n], tau[k] -> Q[m,n]        (m >= n >= k)
  Ormqr,               // A[mn,k], tau[k'], C[m,n] -> op(Q) C or C op(Q)  (left, transpose)
  Pinv,                // A[m,n], atol[], rtol[] (float64) -> [n,m]   (hermitian: via eigh)
  MatrixExp,           // A[n,n] -> exp(A)
};
inline constexpr int kLinalgOpCount = 22;
std::string_view linalg_op_name(LinalgOp op);

struct LinalgParams {
  LinalgOp op = LinalgOp::Inverse;
  bool upper = false;
  bool left = true;
  bool transpose = false;
  bool unit_diagonal = false;
  bool full = false;
  bool vectors = true;
  bool pivots = true;
  bool hermitian = false;
  // Inverse, Solve, LuFactor, Cholesky, LdlFactor: a non-zero info is an
  // InputError at run time, as PyTorch raises (check_errors=True).
  bool check_errors = false;
};

// ---------------------------------------------------------------- data-dependent
// Layers whose output size depends on their input values (docs/dynamic-shapes.md,
// "Data-dependent output shapes"): shape inference gives -1 for those dims unless
// every input value is known (constants while building, every input at run time,
// where the stage runner runs them on the host between engines).
enum class DataDependentOp : std::uint8_t {
  NonZero,            // x (any dtype, any rank) -> int64 [n, rank]: indices of the non-zero
                      //   elements in row-major order (torch.nonzero; NaN counts as non-zero)
  Unique,             // x -> values [n] (has_axis: x's dims with n at axis), inverse (int64,
                      //   x's dims / [x.dims[axis]]; [0] unless return_inverse), counts (int64
                      //   [n]; [0] unless return_counts); always ascending, NaN last
  UniqueConsecutive,  // as Unique over runs of equal neighbours, in input order
  BinCount,           // x (integer [m])[, weights (floating [m])] -> [max(max(x) + 1, minlength)]
                      //   int64 counts, or weights' dtype sums
  RepeatInterleave,   // repeats (integer [m]) -> int64 [sum]: i repeated repeats[i] times
};
inline constexpr int kDataDependentOpCount = 5;
std::string_view data_dependent_op_name(DataDependentOp op);

struct DataDependentParams {
  DataDependentOp op = DataDependentOp::NonZero;
  // Fields the later ops read (unique, bincount); stored for every op so the
  // engine-file record keeps one layout.
  bool sorted = true;
  bool return_inverse = false;
  bool return_counts = false;
  bool has_axis = false;
  std::int64_t axis = 0;
  std::int64_t minlength = 0;
};

// ---------------------------------------------------------------- check
// A run-time assertion (torch's _assert_scalar / _assert_async on values
// known only when the engine runs): every element of the bool input must be
// true, else the run stops with an InputError carrying `message` (which
// names the graph node and its condition). Kept though nothing reads it, and
// never folded: a shape that fails it fails when it runs, not when built.
struct CheckParams {
  std::string message;
};

// Alternatives in LayerKind order: params.index() == kind.
using LayerParams =
    std::variant<ActivationParams, ElementwiseParams, UnaryParams, MatMulParams, ConvolutionParams,
                 DeconvolutionParams, PoolingParams, SoftmaxParams, NormalizationParams,
                 ReduceParams, ShuffleParams, SliceParams, ConcatenationParams, GatherParams,
                 ScatterParams, SelectParams, ConstantParams, CastParams, PaddingParams,
                 ResizeParams, TopKParams, CumulativeParams, ShapeParams, FillParams, PluginParams,
                 LinalgParams, DataDependentParams,
                 CheckParams>;
static_assert(std::variant_size_v<LayerParams> == kLayerKindCount,
              "LayerParams must have one alternative per LayerKind");

inline LayerKind kind_of(const LayerParams& params) {
  return static_cast<LayerKind>(params.index());
}

}  // namespace atenrt::network
