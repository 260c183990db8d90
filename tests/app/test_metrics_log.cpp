// The HUD's in-memory metrics log: past its row limit it drops the oldest half,
// and an export then says so instead of looking like the whole run.
#include <gtest/gtest.h>

#include "app/metrics_log.hpp"

TEST(MetricsLog, AnExportSaysWhenTheRowLimitDroppedSteps) {
  app::MetricsLog log;
  const std::vector<sim::Metric> metric{{"polarization", 0.0}};
  std::vector<sim::Metric> row = metric;
  for (size_t s = 0; s < app::MetricsLog::kMaxRows; ++s) {
    row[0].value = double(s);
    log.record(s, double(s) / 60.0, row);
  }
  EXPECT_EQ(log.droppedRows(), 0u);
  EXPECT_EQ(log.droppedNote(), "") << "every step is held: nothing to say";
  row[0].value = double(app::MetricsLog::kMaxRows);
  log.record(app::MetricsLog::kMaxRows, 0.0, row);
  EXPECT_EQ(log.droppedRows(), app::MetricsLog::kMaxRows / 2);
  EXPECT_EQ(log.rows(), app::MetricsLog::kMaxRows / 2 + 1);
  std::vector<float> last;
  log.tail(0, 1, last);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0], float(app::MetricsLog::kMaxRows)) << "the newest rows are the ones kept";
  EXPECT_NE(log.droppedNote().find("the oldest 500000 steps are not in it"), std::string::npos) << log.droppedNote();
  log.clear();
  EXPECT_EQ(log.droppedNote(), "");
}
