// KH2 expressions: a channel set by a formula of other channels (docs/formats/kh2.md,
// "Expressions"). Compiled once per plan: every node index, type, operand count and joint
// reference is checked there, so evaluation never meets a bad index, a cycle or a
// recursion deeper than kMaxDepth.
#include "formats/kh2/evaluation/kh2_evaluate.hpp"

#include <algorithm>
#include <atomic>
#include <animkit/core/elementary.hpp>

#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

namespace animkit::kh2 {

using NodeType = ExpressionNodeType;

namespace {

constexpr int kMaxDepth = 64;  // nesting an expression may have (real ones are a few levels)
constexpr int kNodeTypeCount = int(NodeType::AtFrameRot) + 1;
constexpr const char* kChannelNames[kChannelCount] = {"scaleX",     "scaleY",     "scaleZ",
                                                      "rotateX",    "rotateY",    "rotateZ",
                                                      "translateX", "translateY", "translateZ"};
constexpr const char* kNodeTypeNames[kNodeTypeCount] = {
    "FUNC_SIN",     "FUNC_COS",     "FUNC_TAN",     "FUNC_ASIN",    "FUNC_ACOS",    "FUNC_ATAN",    "FUNC_LOG",
    "FUNC_EXP",     "FUNC_ABS",     "FUNC_POW",     "FUNC_SQRT",    "FUNC_MIN",     "FUNC_MAX",     "FUNC_AV",
    "FUNC_COND",    "FUNC_AT_FRAME", "FUNC_CTR_DIST", "FUNC_FMOD",  "OP_PLUS",      "OP_MINUS",     "OP_MUL",
    "OP_DIV",       "OP_MOD",       "OP_EQ",        "OP_GT",        "OP_GE",        "OP_LT",        "OP_LE",
    "OP_AND",       "OP_OR",        "VARIABLE_FC",  "CONSTANT_NUM", "FCURVE_ETRNX", "FCURVE_ETRNY", "FCURVE_ETRNZ",
    "FCURVE_ROTX",  "FCURVE_ROTY",  "FCURVE_ROTZ",  "FCURVE_SCALX", "FCURVE_SCALY", "FCURVE_SCALZ", "LIST",
    "ELEMENT_NAME", "FUNC_AT_FRAME_ROT"};

std::string Hex(size_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%zX", v);
  return buf;
}

bool IsFcurve(NodeType t) { return t >= NodeType::FcurveEtrnX && t <= NodeType::FcurveScalZ; }
bool IsOperator(NodeType t) { return t >= NodeType::Plus && t <= NodeType::Or; }

// The channel an FCURVE_* node reads.
int FcurveChannel(NodeType t) {
  const int k = int(t) - int(NodeType::FcurveEtrnX);  // ETRN x/y/z, ROT x/y/z, SCAL x/y/z
  return k < 3 ? 6 + k : k < 6 ? 3 + (k - 3) : k - 6;
}

// Operands a function takes: {fewest, most} (most -1: any number).
std::pair<int, int> FunctionArity(NodeType t) {
  switch (t) {
    case NodeType::Pow: case NodeType::Fmod: case NodeType::AtFrame: case NodeType::AtFrameRot:
    case NodeType::CtrDist: return {2, 2};
    case NodeType::Cond: return {3, 3};
    case NodeType::Min: case NodeType::Max: case NodeType::Av: return {1, -1};
    default: return {1, 1};
  }
}

}  // namespace

// A node made ready to evaluate: operands are indices into `operands`, joints resolved.
struct CompiledNode {
  NodeType type = NodeType::ConstantNum;
  bool global = false;  // flag bit 0: FCURVE_* reads the model-space value
  int joint = -1;       // FCURVE_*: the joint read; CTR_DIST: the first joint
  int joint2 = -1;      // CTR_DIST: the second joint
  int channel = -1;     // FCURVE_*: the channel read
  float value = 0;      // CONSTANT_NUM
  uint32_t first = 0, count = 0;
  int height = 1;         // nesting below and including this node
  bool constant = true;   // no channel, frame or distance read below it
};

struct CompiledExpressions {
  struct Target {
    size_t index = 0;  // in the expression table
    int joint = 0, channel = 0;
    uint32_t root = 0;
  };
  std::vector<CompiledNode> nodes;
  std::vector<uint32_t> operands;
  std::vector<Target> targets;
  // Run-time notes (non-finite results), one per target, kept once.
  std::unique_ptr<std::atomic<bool>[]> reported;
  mutable std::mutex notes_mutex;
  mutable std::vector<std::string> notes;
};

namespace {

struct Failure {
  std::string what;
};

// Compiles the node graph of one motion; nodes shared by several expressions compile once.
class Compiler {
 public:
  Compiler(const InterpolatedMotion& m, size_t joints, CompiledExpressions& out)
      : m_(m), joints_(joints), out_(out), index_(m.expression_nodes.size(), -1),
        state_(m.expression_nodes.size(), kUnseen), errors_(m.expression_nodes.size()) {}

  // The compiled index of node n, or a Failure naming the first fault met.
  uint32_t Compile(int n, int depth) {
    if (n < 0 || size_t(n) >= m_.expression_nodes.size())
      throw Failure{"node index " + std::to_string(n) + " is out of range (the table has " +
                    std::to_string(m_.expression_nodes.size()) + " nodes)"};
    const size_t u = size_t(n);
    if (state_[u] == kOnPath) throw Failure{Where(n) + " refers back to itself (a cycle)"};
    if (state_[u] == kFailed) throw Failure{errors_[u]};
    if (state_[u] == kDone) {
      const uint32_t c = uint32_t(index_[u]);
      if (depth + out_.nodes[c].height > kMaxDepth) throw Failure{Deep(n)};
      return c;
    }
    if (depth >= kMaxDepth) throw Failure{Deep(n)};
    state_[u] = kOnPath;
    try {
      const CompiledNode node = Build(n, depth);
      out_.nodes.push_back(node);
      index_[u] = int(out_.nodes.size() - 1);
      state_[u] = kDone;
      return uint32_t(index_[u]);
    } catch (const Failure& f) {
      state_[u] = kFailed;
      errors_[u] = f.what;
      throw;
    }
  }

  std::string Where(int n) const {
    const size_t at = kReservedSize + size_t(uint32_t(m_.expression_node_offset)) + 12 * size_t(n);
    const int type = m_.expression_nodes[size_t(n)].type;
    return "node " + std::to_string(n) + " (" + (type < kNodeTypeCount ? std::string(kNodeTypeNames[type]) + " " : "") +
           "at " + Hex(at) + ")";
  }

 private:
  enum : uint8_t { kUnseen, kOnPath, kDone, kFailed };

  std::string Deep(int n) const {
    return Where(n) + " nests deeper than " + std::to_string(kMaxDepth) + " levels";
  }

  // The joint a node names: its element, else the ELEMENT_NAME node its car points to.
  int NamedJoint(int n) const {
    if (n < 0 || size_t(n) >= m_.expression_nodes.size())
      throw Failure{"node index " + std::to_string(n) + " is out of range (the table has " +
                    std::to_string(m_.expression_nodes.size()) + " nodes)"};
    const ExpressionNode& e = m_.expression_nodes[size_t(n)];
    int joint = e.element;
    if (joint < 0 && e.car >= 0 && size_t(e.car) < m_.expression_nodes.size() &&
        m_.expression_nodes[size_t(e.car)].type == uint8_t(NodeType::ElementName))
      joint = m_.expression_nodes[size_t(e.car)].element;
    if (joint < 0 || size_t(joint) >= joints_)
      throw Failure{Where(n) + " names joint " + std::to_string(joint) + ", out of range (the motion has " +
                    std::to_string(joints_) + " joints)"};
    return joint;
  }

  // A function's operands: car then cdr, each a value node or a LIST chain of them.
  std::vector<int> FunctionOperands(int n) const {
    std::vector<int> items;
    const ExpressionNode& e = m_.expression_nodes[size_t(n)];
    for (int head : {e.car, e.cdr}) {
      size_t steps = 0;
      while (head >= 0 && size_t(head) < m_.expression_nodes.size() &&
             m_.expression_nodes[size_t(head)].type == uint8_t(NodeType::List)) {
        if (++steps > m_.expression_nodes.size()) throw Failure{Where(n) + "'s LIST of operands is a cycle"};
        items.push_back(m_.expression_nodes[size_t(head)].car);
        head = m_.expression_nodes[size_t(head)].cdr;
      }
      if (head != -1) items.push_back(head);
    }
    return items;
  }

  CompiledNode Build(int n, int depth);

  const InterpolatedMotion& m_;
  size_t joints_;
  CompiledExpressions& out_;
  std::vector<int> index_;
  std::vector<uint8_t> state_;
  std::vector<std::string> errors_;
};

CompiledNode Compiler::Build(int n, int depth) {
  const ExpressionNode& e = m_.expression_nodes[size_t(n)];
  if (e.type >= kNodeTypeCount) throw Failure{Where(n) + " has unknown type " + std::to_string(e.type)};
  CompiledNode c;
  c.type = NodeType(e.type);
  c.global = (e.flags & 1) != 0;
  c.value = e.value;
  if (c.type == NodeType::ConstantNum) return c;
  if (c.type == NodeType::VariableFc) {
    c.constant = false;
    return c;
  }
  if (IsFcurve(c.type)) {
    c.joint = NamedJoint(n);
    c.channel = FcurveChannel(c.type);
    c.constant = false;
    return c;
  }
  if (c.type == NodeType::List || c.type == NodeType::ElementName)
    throw Failure{Where(n) + " stands where a value is expected"};
  std::vector<int> items;
  if (IsOperator(c.type)) {
    items.push_back(e.car);
    if (e.cdr != -1) items.push_back(e.cdr);
    const bool unary_ok = c.type == NodeType::Plus || c.type == NodeType::Minus;
    if (items.size() < 2 && !unary_ok) throw Failure{Where(n) + " has one operand, needs two (car and cdr)"};
  } else {
    items = FunctionOperands(n);
    const auto [fewest, most] = FunctionArity(c.type);
    if (int(items.size()) < fewest || (most >= 0 && int(items.size()) > most))
      throw Failure{Where(n) + " has " + std::to_string(items.size()) + " operands, takes " +
                    std::to_string(fewest) + (most < 0 ? " or more" : most > fewest ? " to " + std::to_string(most) : "")};
  }
  if (c.type == NodeType::CtrDist) {  // two joints, each named by a node
    c.joint = NamedJoint(items[0]);
    c.joint2 = NamedJoint(items[1]);
    c.constant = false;
    return c;
  }
  std::vector<uint32_t> compiled;
  for (int item : items) compiled.push_back(Compile(item, depth + 1));
  c.first = uint32_t(out_.operands.size());
  c.count = uint32_t(compiled.size());
  for (uint32_t k : compiled) {
    out_.operands.push_back(k);
    c.height = std::max(c.height, out_.nodes[k].height + 1);
    c.constant = c.constant && out_.nodes[k].constant;
  }
  if (c.type == NodeType::AtFrame || c.type == NodeType::AtFrameRot) c.constant = false;
  return c;
}

// The channels (and their model-space reading) an expression sees at one time.
struct Context {
  const EvaluationPlan* plan;
  const InterpolatedMotion* motion;
  const CompiledExpressions* e;
  float time;
  std::span<const ChannelValues> channels;
};

// The model-space transform of a joint, composed from the channels up its parents
// (forward kinematics: the constraints and IK of this pose have not run yet).
TransformTRS ModelSpace(const Context& c, int joint) {
  std::vector<int> chain;
  for (int j = joint; j >= 0 && chain.size() <= c.channels.size(); j = c.plan->parents[size_t(j)]) chain.push_back(j);
  TransformTRS model;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const TransformTRS local = TransformFromChannels(c.channels[size_t(*it)]);
    model = it == chain.rbegin() ? local : ComposePerAxis(model, local);
  }
  return model;
}

float ReadChannel(const Context& c, const CompiledNode& n) {
  if (!n.global) return c.channels[size_t(n.joint)][size_t(n.channel)];
  const TransformTRS model = ModelSpace(c, n.joint);
  const int axis = n.channel % 3;
  if (n.channel >= 6) return axis == 0 ? model.translation.x : axis == 1 ? model.translation.y : model.translation.z;
  if (n.channel < 3) return axis == 0 ? model.scale.x : axis == 1 ? model.scale.y : model.scale.z;
  const Vec3 euler = EulerFromQuat(model.rotation, EulerOrder::XYZ);
  return axis == 0 ? euler.x : axis == 1 ? euler.y : euler.z;
}

float Evaluate(const Context& c, uint32_t index);

float Binary(NodeType t, float a, float b) {
  switch (t) {
    case NodeType::Plus: return a + b;
    case NodeType::Minus: return a - b;
    case NodeType::Mul: return a * b;
    case NodeType::Div: return a / b;
    case NodeType::Mod: return a - b * std::floor(a / b);
    case NodeType::Eq: return a == b ? 1.0f : 0.0f;
    case NodeType::Gt: return a > b ? 1.0f : 0.0f;
    case NodeType::Ge: return a >= b ? 1.0f : 0.0f;
    case NodeType::Lt: return a < b ? 1.0f : 0.0f;
    case NodeType::Le: return a <= b ? 1.0f : 0.0f;
    case NodeType::And: return a != 0 && b != 0 ? 1.0f : 0.0f;
    case NodeType::Or: return a != 0 || b != 0 ? 1.0f : 0.0f;
    case NodeType::Pow: return Pow(a, b);
    case NodeType::Fmod: return std::fmod(a, b);
    default: return std::nanf("");
  }
}

float Unary(NodeType t, float a) {
  switch (t) {
    case NodeType::Sin: return Sin(a);
    case NodeType::Cos: return Cos(a);
    case NodeType::Tan: return Tan(a);
    case NodeType::Asin: return Asin(a);
    case NodeType::Acos: return Acos(a);
    case NodeType::Atan: return Atan(a);
    case NodeType::Log: return Log(a);
    case NodeType::Exp: return Exp(a);
    case NodeType::Abs: return std::fabs(a);
    case NodeType::Sqrt: return std::sqrt(a);
    case NodeType::Plus: return a;
    case NodeType::Minus: return -a;
    default: return std::nanf("");
  }
}

// AT_FRAME(value, frame): the value with every channel read from the curves at that frame.
float AtFrame(const Context& c, const CompiledNode& n) {
  const float frame = Evaluate(c, c.e->operands[n.first + 1]);
  if (!std::isfinite(frame)) return frame;
  std::vector<ChannelValues> pose;
  EvaluatePose(*c.motion, frame, c.plan->base, pose);
  pose.resize(c.channels.size(), ChannelValues{1, 1, 1, 0, 0, 0, 0, 0, 0});
  const Context other{c.plan, c.motion, c.e, frame, pose};
  return Evaluate(other, c.e->operands[n.first]);
}

float Evaluate(const Context& c, uint32_t index) {
  const CompiledNode& n = c.e->nodes[index];
  const auto arg = [&](uint32_t k) { return Evaluate(c, c.e->operands[n.first + k]); };
  switch (n.type) {
    case NodeType::ConstantNum: return n.value;
    case NodeType::VariableFc: return c.time;
    case NodeType::CtrDist: {
      const Vec3 d = ModelSpace(c, n.joint).translation - ModelSpace(c, n.joint2).translation;
      return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    }
    case NodeType::Cond: return arg(0) != 0 ? arg(1) : arg(2);
    case NodeType::AtFrame: case NodeType::AtFrameRot: return AtFrame(c, n);
    case NodeType::Min: case NodeType::Max: case NodeType::Av: {
      float acc = arg(0);
      for (uint32_t k = 1; k < n.count; ++k) {
        const float v = arg(k);
        acc = n.type == NodeType::Min ? std::min(acc, v) : n.type == NodeType::Max ? std::max(acc, v) : acc + v;
      }
      return n.type == NodeType::Av ? acc / float(n.count) : acc;
    }
    default: break;
  }
  if (IsFcurve(n.type)) return ReadChannel(c, n);
  if (n.count == 1) return Unary(n.type, arg(0));
  return Binary(n.type, arg(0), arg(1));
}

}  // namespace

namespace detail {

std::shared_ptr<const CompiledExpressions> CompileExpressions(const InterpolatedMotion& motion, size_t joints,
                                                              std::vector<bool>& driven,
                                                              std::vector<std::string>& warnings) {
  if (motion.expressions.empty()) return nullptr;
  auto out = std::make_shared<CompiledExpressions>();
  Compiler compiler(motion, joints, *out);
  const std::vector<ChannelValues> none;
  for (size_t i = 0; i < motion.expressions.size(); ++i) {
    const Expression& x = motion.expressions[i];
    const size_t at = kReservedSize + size_t(uint32_t(motion.expression_offset)) + 8 * i;
    const bool channel_ok = x.channel >= 0 && x.channel < kChannelCount;
    const std::string name = "expression " + std::to_string(i) + " (at " + Hex(at) + ", joint " +
                             std::to_string(x.joint) + " " +
                             (channel_ok ? kChannelNames[x.channel] : "channel " + std::to_string(x.channel)) + ")";
    try {
      if (x.joint < 0 || size_t(x.joint) >= joints)
        throw Failure{"its joint is out of range (the motion has " + std::to_string(joints) + " joints)"};
      if (!channel_ok) throw Failure{"its channel is not 0..8"};
      const uint32_t root = compiler.Compile(x.node, 0);
      if (out->nodes[root].constant) {  // a formula of constants: its value is known now
        const Context c{nullptr, &motion, out.get(), 0, none};
        if (!std::isfinite(Evaluate(c, root))) throw Failure{"it is constant and not finite"};
      }
      out->targets.push_back({i, x.joint, x.channel, root});
      driven[size_t(x.joint)] = true;
    } catch (const Failure& f) {
      warnings.push_back(name + " is not evaluated: " + f.what + "; the channel keeps its curves' value");
    }
  }
  out->reported = std::make_unique<std::atomic<bool>[]>(out->targets.size());
  if (out->targets.empty()) return nullptr;
  return out;
}

void RunExpressions(const EvaluationPlan& plan, const InterpolatedMotion& motion, float key_time,
                    std::span<ChannelValues> channels) {
  const CompiledExpressions& e = *plan.expressions;
  for (size_t k = 0; k < e.targets.size(); ++k) {
    const CompiledExpressions::Target& t = e.targets[k];
    const Context c{&plan, &motion, &e, key_time, channels};
    const float v = Evaluate(c, t.root);
    if (std::isfinite(v)) {
      channels[size_t(t.joint)][size_t(t.channel)] = v;
    } else if (!e.reported[k].exchange(true)) {
      const std::lock_guard lock(e.notes_mutex);
      e.notes.push_back("expression " + std::to_string(t.index) + " (joint " + std::to_string(t.joint) + " " +
                        kChannelNames[t.channel] + ") is not finite at key time " + std::to_string(key_time) +
                        ": the channel keeps its value (first time only)");
    }
  }
}

}  // namespace detail

std::vector<std::string> RuntimeWarnings(const EvaluationPlan& plan) {
  if (!plan.expressions) return {};
  const std::lock_guard lock(plan.expressions->notes_mutex);
  return plan.expressions->notes;
}

}  // namespace animkit::kh2
