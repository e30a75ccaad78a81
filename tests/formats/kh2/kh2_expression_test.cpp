// KH2 expressions on hand-built motions: every node type, the operand layouts (car/cdr,
// LIST chains, ELEMENT_NAME), table order, and what is refused (bad indices, cycles,
// unknown types, too deep, non-finite results). Expected values are worked out by hand
// from the joints' channels below.
#include "support/test_support.hpp"

#include <animkit/formats/kh2.hpp>

#include <cmath>
#include <random>

namespace animkit {
namespace {

using T = kh2::ExpressionNodeType;
constexpr float kHalfPi = 1.57079633f;

kh2::ExpressionNode Node(T type, int16_t car = -1, int16_t cdr = -1, float value = 0, int16_t element = -1,
                         uint8_t flags = 0) {
  kh2::ExpressionNode n;
  n.type = uint8_t(type);
  n.flags = flags;
  n.element = element;
  n.value = value;
  n.car = car;
  n.cdr = cdr;
  return n;
}
kh2::ExpressionNode Num(float v) { return Node(T::ConstantNum, -1, -1, v); }

// Three bones: 0 a root (scale 2,3,4; rotation z pi/2; translation 5,6,7), 1 its child
// (translation x from a linear curve: 10 at key time 0, 70 at 60; rotation z 0.25), 2 the
// target (translation -1,-1,-1), child of 1.
kh2::InterpolatedMotion Rig() {
  kh2::InterpolatedMotion m;
  m.bone_count = m.total_bone_count = 3;
  m.joints = {{0, 0}, {1, 0}, {2, 0}, {0, 0}};
  m.expression_offset = 0x100;
  m.expression_node_offset = 0x200;
  m.key_times = {0, 60};
  m.values = {10, 70};
  kh2::Key a, b;
  a.packed = uint16_t(kh2::KeyType::Linear);
  b.packed = uint16_t(kh2::KeyType::Linear) | (1 << 2);
  b.value = 1;
  m.keys = {a, b};
  kh2::Curve c;
  c.joint = 1;
  c.packed = 6;  // translation x, clamp both sides
  c.key_count = 2;
  m.forward = {c};
  return m;
}

struct Result {
  kh2::EvaluationPlan plan;
  std::vector<kh2::ChannelValues> channels;
  std::vector<TransformTRS> model;
};

Result Evaluate(const kh2::InterpolatedMotion& m, float key_time = 0) {
  std::vector<kh2::ChannelValues> base = {{2, 3, 4, 0, 0, kHalfPi, 5, 6, 7},
                                          {1, 1, 1, 0, 0, 0.25f, 0, 0, 0},
                                          {1, 1, 1, 0, 0, 0, -1, -1, -1}};
  Result r{kh2::PlanEvaluation(m, base, {-1, 0, 1}), {}, {}};
  r.channels.resize(r.plan.joint_count());
  r.model.resize(r.plan.joint_count());
  const kh2::PoseJob job{&m, &r.plan, key_time, r.channels, r.model};
  EXPECT_TRUE(job.Run());
  return r;
}

// The value one expression (root = node 0) gives joint 2's translation x.
float One(std::vector<kh2::ExpressionNode> nodes, float key_time = 0) {
  kh2::InterpolatedMotion m = Rig();
  m.expression_nodes = std::move(nodes);
  m.expressions = {{2, 6, 0, 0}};
  const Result r = Evaluate(m, key_time);
  EXPECT_TRUE(r.plan.warnings.empty()) << r.plan.warnings.front();
  EXPECT_TRUE(r.plan.driven[2]);
  return r.channels[2][6];
}

// The warning of one refused expression; the channel keeps its value (-1).
std::string Refused(std::vector<kh2::ExpressionNode> nodes, int16_t root = 0, int16_t joint = 2,
                    int16_t channel = 6) {
  kh2::InterpolatedMotion m = Rig();
  m.expression_nodes = std::move(nodes);
  m.expressions = {{joint, channel, 0, root}};
  const Result r = Evaluate(m);
  EXPECT_EQ(r.channels[2][6], -1);
  EXPECT_FALSE(r.plan.driven[2]);
  EXPECT_EQ(r.plan.warnings.size(), 1u);
  return r.plan.warnings.empty() ? "" : r.plan.warnings.front();
}

TEST(Kh2Expression, Functions) {
  EXPECT_NEAR(One({Node(T::Sin, 1), Num(0.5f)}), 0.47942554, 1e-6);
  EXPECT_NEAR(One({Node(T::Cos, 1), Num(0.5f)}), 0.87758256, 1e-6);
  EXPECT_NEAR(One({Node(T::Tan, 1), Num(0.5f)}), 0.54630249, 1e-6);
  EXPECT_NEAR(One({Node(T::Asin, 1), Num(0.5f)}), 0.52359878, 1e-6);
  EXPECT_NEAR(One({Node(T::Acos, 1), Num(0.5f)}), 1.04719755, 1e-6);
  EXPECT_NEAR(One({Node(T::Atan, 1), Num(1)}), 0.78539816, 1e-6);
  EXPECT_NEAR(One({Node(T::Log, 1), Num(2)}), 0.69314718, 1e-6);
  EXPECT_NEAR(One({Node(T::Exp, 1), Num(1)}), 2.71828183, 1e-6);
  EXPECT_EQ(One({Node(T::Abs, 1), Num(-3)}), 3);
  EXPECT_EQ(One({Node(T::Sqrt, 1), Num(16)}), 4);
  // Two operands as car and cdr, or as a LIST chain at car.
  EXPECT_EQ(One({Node(T::Pow, 1, 2), Num(2), Num(10)}), 1024);
  EXPECT_EQ(One({Node(T::Pow, 1), Node(T::List, 2, 3), Num(2), Node(T::List, 4), Num(3)}), 8);
  EXPECT_EQ(One({Node(T::Fmod, 1, 2), Num(-7), Num(3)}), -1);  // sign of the dividend
  // MIN, MAX, AV over a LIST of three; a single operand too.
  const auto three = [](T f) {
    return std::vector{Node(f, 1), Node(T::List, 2, 3), Num(3), Node(T::List, 4, 5), Num(1), Node(T::List, 6),
                       Num(8)};
  };
  EXPECT_EQ(One(three(T::Min)), 1);
  EXPECT_EQ(One(three(T::Max)), 8);
  EXPECT_EQ(One(three(T::Av)), 4);
  EXPECT_EQ(One({Node(T::Max, 1), Num(-2)}), -2);
  // COND(condition, when non-zero, when zero).
  const auto cond = [](float c) {
    return std::vector{Node(T::Cond, 1), Node(T::List, 2, 3), Num(c), Node(T::List, 4, 5), Num(5), Node(T::List, 6),
                       Num(7)};
  };
  EXPECT_EQ(One(cond(1)), 5);
  EXPECT_EQ(One(cond(0)), 7);
}

TEST(Kh2Expression, Operators) {
  const auto op = [](T t, float a, float b) { return One({Node(t, 1, 2), Num(a), Num(b)}); };
  EXPECT_EQ(op(T::Plus, 1, 2), 3);
  EXPECT_EQ(op(T::Minus, 5, 2), 3);
  EXPECT_EQ(op(T::Mul, 3, 4), 12);
  EXPECT_EQ(op(T::Div, 1, 4), 0.25f);
  EXPECT_EQ(op(T::Mod, -7, 3), 2);  // floored: sign of the divisor
  EXPECT_EQ(op(T::Mod, 7, 3), 1);
  EXPECT_EQ(op(T::Eq, 2, 2), 1);
  EXPECT_EQ(op(T::Eq, 2, 3), 0);
  EXPECT_EQ(op(T::Gt, 3, 2), 1);
  EXPECT_EQ(op(T::Gt, 2, 2), 0);
  EXPECT_EQ(op(T::Ge, 2, 2), 1);
  EXPECT_EQ(op(T::Ge, 1, 2), 0);
  EXPECT_EQ(op(T::Lt, 1, 2), 1);
  EXPECT_EQ(op(T::Lt, 2, 2), 0);
  EXPECT_EQ(op(T::Le, 2, 2), 1);
  EXPECT_EQ(op(T::Le, 3, 2), 0);
  EXPECT_EQ(op(T::And, 1, 2), 1);
  EXPECT_EQ(op(T::And, 1, 0), 0);
  EXPECT_EQ(op(T::Or, 0, 2), 1);
  EXPECT_EQ(op(T::Or, 0, 0), 0);
  EXPECT_EQ(One({Node(T::Minus, 1), Num(4)}), -4);  // one operand: negation
  EXPECT_EQ(One({Node(T::Plus, 1), Num(4)}), 4);
  // Nested: (1 + 2) * (10 - 4) = 18.
  EXPECT_EQ(One({Node(T::Mul, 1, 4), Node(T::Plus, 2, 3), Num(1), Num(2), Node(T::Minus, 5, 6), Num(10), Num(4)}), 18);
}

TEST(Kh2Expression, ChannelReads) {
  // Local channels: the joint from the node's element, or from an ELEMENT_NAME at car.
  EXPECT_EQ(One({Node(T::FcurveScalX, -1, -1, 0, 0)}), 2);
  EXPECT_EQ(One({Node(T::FcurveScalY, -1, -1, 0, 0)}), 3);
  EXPECT_EQ(One({Node(T::FcurveScalZ, 1), Node(T::ElementName, -1, -1, 0, 0)}), 4);
  EXPECT_EQ(One({Node(T::FcurveRotX, -1, -1, 0, 0)}), 0);
  EXPECT_EQ(One({Node(T::FcurveRotZ, -1, -1, 0, 0)}), kHalfPi);
  EXPECT_EQ(One({Node(T::FcurveRotY, -1, -1, 0, 1)}), 0);
  EXPECT_EQ(One({Node(T::FcurveEtrnX, -1, -1, 0, 0)}), 5);
  EXPECT_EQ(One({Node(T::FcurveEtrnY, 1), Node(T::ElementName, -1, -1, 0, 0)}), 6);
  EXPECT_EQ(One({Node(T::FcurveEtrnZ, -1, -1, 0, 0)}), 7);
  EXPECT_EQ(One({Node(T::FcurveEtrnX, -1, -1, 0, 1)}), 10);      // joint 1's curve at key time 0
  EXPECT_EQ(One({Node(T::FcurveEtrnX, -1, -1, 0, 1)}, 30), 40);  // and at 30
  // Flag bit 0: model space (forward kinematics of the channels). Joint 1 sits at
  // T0 + R0 (S0 * (10, 0, 0)) = (5, 6, 7) + Rz(pi/2) (20, 0, 0) = (5, 26, 7).
  EXPECT_NEAR(One({Node(T::FcurveEtrnX, -1, -1, 0, 1, 1)}), 5, 1e-5);
  EXPECT_NEAR(One({Node(T::FcurveEtrnY, -1, -1, 0, 1, 1)}), 26, 1e-5);
  EXPECT_NEAR(One({Node(T::FcurveEtrnZ, -1, -1, 0, 1, 1)}), 7, 1e-5);
  EXPECT_NEAR(One({Node(T::FcurveScalY, -1, -1, 0, 1, 1)}), 3, 1e-6);          // per-axis: 3 * 1
  EXPECT_NEAR(One({Node(T::FcurveRotZ, -1, -1, 0, 1, 1)}), kHalfPi + 0.25f, 1e-6);
  // The current frame, key-time units.
  EXPECT_EQ(One({Node(T::VariableFc)}, 12), 12);
  // CTR_DIST: distance between the joints' model-space positions, (5,6,7) to (5,26,7).
  EXPECT_NEAR(One({Node(T::CtrDist, 1, 2), Node(T::ElementName, -1, -1, 0, 0), Node(T::ElementName, -1, -1, 0, 1)}),
              20, 1e-5);
  // AT_FRAME(value, frame): the value with the curves read at that frame.
  EXPECT_EQ(One({Node(T::AtFrame, 1, 2), Node(T::FcurveEtrnX, -1, -1, 0, 1), Num(30)}), 40);
  EXPECT_EQ(One({Node(T::AtFrameRot, 1, 2), Node(T::FcurveEtrnX, -1, -1, 0, 1), Num(60)}), 70);
  EXPECT_EQ(One({Node(T::AtFrame, 1, 2), Node(T::VariableFc), Num(45)}, 3), 45);
  // Joint 2's own channels are readable too (its base translation y is -1).
  EXPECT_EQ(One({Node(T::FcurveEtrnY, -1, -1, 0, 2)}), -1);
}

TEST(Kh2Expression, TableOrderAndTargets) {
  // scaleY(2) := scaleX(0); scaleX(2) := 1 / scaleX(0); translateZ(2) := scaleY(2) + scaleX(2).
  kh2::InterpolatedMotion m = Rig();
  m.expression_nodes = {Node(T::FcurveScalX, -1, -1, 0, 0), Node(T::Div, 2, 0), Num(1),
                        Node(T::Plus, 4, 5), Node(T::FcurveScalY, -1, -1, 0, 2), Node(T::FcurveScalX, -1, -1, 0, 2)};
  m.expressions = {{2, 1, 0, 0}, {2, 0, 0, 1}, {2, 8, 0, 3}};
  const Result r = Evaluate(m);
  EXPECT_TRUE(r.plan.warnings.empty());
  EXPECT_EQ(r.channels[2][1], 2);
  EXPECT_EQ(r.channels[2][0], 0.5f);
  EXPECT_EQ(r.channels[2][8], 2.5f);  // reads the values the earlier expressions set
  EXPECT_FALSE(r.plan.driven[0]);
  EXPECT_FALSE(r.plan.driven[1]);
  EXPECT_TRUE(r.plan.driven[2]);
  // The expressions off with the constraints: the curves alone.
  const kh2::EvaluationPlan off = kh2::PlanEvaluation(m, {}, {}, kh2::EvaluationSettings{false});
  EXPECT_EQ(off.expressions, nullptr);
}

TEST(Kh2Expression, ScaleRuleCounterScale) {
  // scaleX(1) := 1 / scaleX(0): joint 1's model scale x is 2 * 0.5 = 1 under the per-axis
  // rule, so joint 2 (translation -1,-1,-1 in joint 1's axes) sits 1 unit from it along
  // joint 1's x axis (Rz(pi/2 + 0.25) x), not 2.
  kh2::InterpolatedMotion m = Rig();
  m.expression_nodes = {Node(T::Div, 1, 2), Num(1), Node(T::FcurveScalX, -1, -1, 0, 0)};
  m.expressions = {{1, 0, 0, 0}};
  const Result r = Evaluate(m);
  EXPECT_EQ(r.channels[1][0], 0.5f);
  EXPECT_NEAR(r.model[1].scale.x, 1, 1e-6);
  EXPECT_NEAR(r.model[1].scale.y, 3, 1e-6);
  const Vec3 d = r.model[2].translation - r.model[1].translation;
  const float a = kHalfPi + 0.25f;  // joint 1's model rotation about z
  // offset = R (S * t) with S = (1, 3, 4), t = (-1, -1, -1): R (-1, -3, -4).
  test::ExpectVec(d, -std::cos(a) + 3 * std::sin(a), -std::sin(a) - 3 * std::cos(a), -4, 1e-5);
}

TEST(Kh2Expression, RefusedExpressionsNameThemselves) {
  // Node offsets: 0x90 + 0x200 + 12 * index; expression 0 at 0x90 + 0x100.
  EXPECT_NE(Refused({Num(1)}, 5).find("node index 5 is out of range"), std::string::npos);
  EXPECT_NE(Refused({Node(T::Sin, 9)}).find("node index 9 is out of range"), std::string::npos);
  const std::string unknown = Refused({Node(T::Plus, 1, 2), Num(1), Node(T(44))});
  EXPECT_NE(unknown.find("expression 0 (at 0x190, joint 2 translateX)"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("node 2 (at 0x2A8) has unknown type 44"), std::string::npos) << unknown;
  EXPECT_NE(Refused({Node(T(200))}).find("unknown type 200"), std::string::npos);
  EXPECT_NE(Refused({Node(T::Plus, 1, 2), Node(T::Minus, 0), Num(1)}).find("a cycle"), std::string::npos);
  EXPECT_NE(Refused({Node(T::Sin, 0)}).find("node 0 (FUNC_SIN at 0x290) refers back to itself"), std::string::npos);
  EXPECT_NE(Refused({Node(T::Max, 1), Node(T::List, 2, 1), Num(1)}).find("LIST of operands is a cycle"),
            std::string::npos);
  EXPECT_NE(Refused({Node(T::Pow, 1), Num(2)}).find("has 1 operands, takes 2"), std::string::npos);
  EXPECT_NE(Refused({Node(T::Mul, 1), Num(2)}).find("needs two"), std::string::npos);
  EXPECT_NE(Refused({Node(T::List, 1), Num(2)}).find("stands where a value is expected"), std::string::npos);
  EXPECT_NE(Refused({Node(T::FcurveRotX, -1, -1, 0, 3)}).find("names joint 3, out of range"), std::string::npos);
  EXPECT_NE(Refused({Num(1)}, 0, 7).find("its joint is out of range"), std::string::npos);
  EXPECT_NE(Refused({Num(1)}, 0, 2, 9).find("channel 9) is not evaluated: its channel is not 0..8"),
            std::string::npos);
  EXPECT_NE(Refused({Node(T::Div, 1, 2), Num(1), Num(0)}).find("constant and not finite"), std::string::npos);
  EXPECT_NE(Refused({Node(T::Sqrt, 1), Num(-1)}).find("constant and not finite"), std::string::npos);
  // 70 nested negations: deeper than the evaluator recurses.
  std::vector<kh2::ExpressionNode> deep;
  for (int16_t i = 0; i < 70; ++i) deep.push_back(Node(T::Minus, int16_t(i + 1)));
  deep.push_back(Num(1));
  EXPECT_NE(Refused(deep).find("nests deeper than 64 levels"), std::string::npos);
}

TEST(Kh2Expression, RefusedOneLeavesTheOthers) {
  kh2::InterpolatedMotion m = Rig();
  m.expression_nodes = {Num(3), Node(T(99)), Num(4)};
  m.expressions = {{2, 6, 0, 0}, {2, 7, 0, 1}, {2, 8, 0, 2}};
  const Result r = Evaluate(m);
  ASSERT_EQ(r.plan.warnings.size(), 1u);
  EXPECT_NE(r.plan.warnings[0].find("expression 1"), std::string::npos);
  EXPECT_EQ(r.channels[2][6], 3);
  EXPECT_EQ(r.channels[2][7], -1);
  EXPECT_EQ(r.channels[2][8], 4);
}

TEST(Kh2Expression, NonFiniteAtRunTimeKeepsTheChannelAndWarnsOnce) {
  // sqrt(translateX of joint 1 - 34): not finite before key time 24 (the curve is 10 + t).
  kh2::InterpolatedMotion m = Rig();
  m.expression_nodes = {Node(T::Sqrt, 1), Node(T::Minus, 2, 3), Node(T::FcurveEtrnX, -1, -1, 0, 1), Num(34)};
  m.expressions = {{2, 6, 0, 0}};
  std::vector<kh2::ChannelValues> base(3, {1, 1, 1, 0, 0, 0, -1, -1, -1});
  const kh2::EvaluationPlan plan = kh2::PlanEvaluation(m, base, {-1, 0, 1});
  EXPECT_TRUE(plan.warnings.empty());
  std::vector<kh2::ChannelValues> channels(3);
  std::vector<TransformTRS> model(3);
  for (float t : {0.0f, 6.0f, 60.0f}) {
    ASSERT_TRUE((kh2::PoseJob{&m, &plan, t, channels, model}.Run()));
    EXPECT_EQ(channels[2][6], t < 24 ? -1.0f : 6.0f) << t;  // at 60: sqrt(70 - 34)
    EXPECT_TRUE(std::isfinite(model[2].translation.x));
  }
  const std::vector<std::string> notes = kh2::RuntimeWarnings(plan);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("expression 0 (joint 2 translateX) is not finite at key time 0"), std::string::npos)
      << notes[0];
}

// Random node tables (any type byte, indices and joints in and out of range): planning
// and evaluation never crash or loop, every channel stays finite, and each expression is
// either run or named in a warning.
TEST(Kh2Expression, RandomGraphsNeverCrashOrLoop) {
  std::mt19937 rng(28);
  const auto pick = [&](int low, int high) { return int16_t(low + int(rng() % uint32_t(high - low + 1))); };
  for (int round = 0; round < 400; ++round) {
    kh2::InterpolatedMotion m = Rig();
    const int n = pick(1, 12);
    for (int i = 0; i < n; ++i)
      m.expression_nodes.push_back(Node(T(pick(0, 47)), pick(-2, int16_t(n + 1)), pick(-2, int16_t(n + 1)),
                                        float(pick(-4, 4)), pick(-2, 4), uint8_t(pick(0, 1))));
    for (int k = 0; k < 3; ++k) m.expressions.push_back({pick(-1, 3), pick(-1, 9), 0, pick(-1, int16_t(n))});
    const Result r = Evaluate(m, float(pick(0, 60)));
    for (const kh2::ChannelValues& c : r.channels)
      for (float v : c) ASSERT_TRUE(std::isfinite(v)) << "round " << round;
    size_t run = 0;
    for (size_t k = 0; k < 3; ++k) {
      const std::string name = "expression " + std::to_string(k) + " ";
      bool warned = false;
      for (const std::string& w : r.plan.warnings) warned = warned || w.rfind(name, 0) == 0;
      run += warned ? 0 : 1;
    }
    EXPECT_EQ(run + r.plan.warnings.size(), 3u) << "round " << round;
  }
}

}  // namespace
}  // namespace animkit
