#include "app/fps_machine.hpp"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "app/platform.hpp"
#include "app/run_report.hpp"

namespace app {

namespace {
std::string firstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) s.pop_back();
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

// "key : value" lines of /proc/cpuinfo, the first processor's, and the physical cores of all.
struct CpuInfo {
  std::string family, model, stepping;
  int cores = 0;
};
CpuInfo readCpuInfo() {
  CpuInfo info;
  std::ifstream in("/proc/cpuinfo");
  std::set<std::pair<std::string, std::string>> physicalCores;  // (physical id, core id)
  std::string physical, line;
  int coresField = 0;
  while (std::getline(in, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trimmed(line.substr(0, colon)), value = trimmed(line.substr(colon + 1));
    if (key == "cpu family" && info.family.empty()) info.family = value;
    else if (key == "model" && info.model.empty()) info.model = value;
    else if (key == "stepping" && info.stepping.empty()) info.stepping = value;
    else if (key == "physical id") physical = value;
    else if (key == "core id") physicalCores.insert({physical, value});
    else if (key == "cpu cores" && !coresField) coresField = std::atoi(value.c_str());
  }
  info.cores = !physicalCores.empty() ? int(physicalCores.size()) : coresField;
  return info;
}

std::string osName() {
  const std::string host = platform::hostDescription();  // the browser's user agent; "" on the desktop
  if (!host.empty()) return host;
  std::string pretty;
  std::ifstream in("/etc/os-release");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      pretty = line.substr(12);
      if (pretty.size() >= 2 && pretty.front() == '"' && pretty.back() == '"') pretty = pretty.substr(1, pretty.size() - 2);
    }
  utsname u{};
  if (uname(&u) != 0) return pretty;
  const std::string kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
  return pretty.empty() ? kernel : pretty + " (" + kernel + ")";
}

// "ac" when a mains supply is online or a battery charges/is full, "battery" when one discharges.
std::string powerSource() {
  std::error_code ec;
  bool mainsOnline = false, discharging = false, any = false;
  for (const auto& e : std::filesystem::directory_iterator("/sys/class/power_supply", ec)) {
    const std::string dir = e.path().string(), type = firstLine(dir + "/type");
    if (type == "Mains") {
      any = true;
      mainsOnline = mainsOnline || firstLine(dir + "/online") == "1";
    } else if (type == "Battery") {
      any = true;
      discharging = discharging || firstLine(dir + "/status") == "Discharging";
    }
  }
  if (!any) return "";
  return discharging && !mainsOnline ? "battery" : "ac";
}

double memoryGb() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("MemTotal:", 0) == 0) return std::atof(line.c_str() + 9) / (1024.0 * 1024.0);  // kB
  return 0;
}

std::optional<double> loadAverage() {
  double load = 0;
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return std::nullopt;
  const bool ok = std::fscanf(f, "%lf", &load) == 1;
  std::fclose(f);
  return ok ? std::optional<double>(load) : std::nullopt;
}

// The display servers that present a window's frames: their CPU is the run's, not another load's.
bool isDisplayServer(const std::string& comm) { return comm == "Xvfb" || comm == "Xorg" || comm == "Xwayland"; }
}  // namespace

FpsMachine describeMachine(const std::string& glRenderer, const std::string& glVendor, const std::string& glVersion,
                           int threads) {
  FpsMachine m;
  m.cpu = platform::hostDescription().empty() ? cpuName() : "unknown (a browser does not say)";
  const CpuInfo info = readCpuInfo();
  if (!info.family.empty()) m.cpuSignature = "family " + info.family + " model " + info.model + " stepping " + info.stepping;
  m.cores = info.cores;
  m.threads = threads;
  m.memoryGb = memoryGb();
  m.glRenderer = glRenderer;
  m.glVendor = glVendor;
  m.glVersion = glVersion;
  // A page's GL strings are masked ("WebKit WebGL"); the browser may name what draws behind them.
  const platform::BrowserMachine page = platform::browserMachine();
  if (!page.glRenderer.empty()) m.glRenderer = page.glRenderer;
  if (!page.glVendor.empty()) m.glVendor = page.glVendor;
  if (page.memoryGb > 0 && m.memoryGb <= 0) m.memoryGb = page.memoryGb;
  m.softwareRenderer = isSoftwareRenderer(m.glRenderer);
  m.os = osName();
  m.power = powerSource();
  const std::string governor = firstLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  m.governor = governor;
  return m;
}

BusyWatch::Sample BusyWatch::sample() {
  Sample s;
  s.wall = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  std::ifstream stat("/proc/stat");
  std::string cpu;
  uint64_t v[10] = {};
  if (!(stat >> cpu) || cpu != "cpu") return s;
  for (uint64_t& x : v) stat >> x;
  // user nice system idle iowait irq softirq steal guest guest_nice: guest time is inside user already.
  s.totalTicks = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
  s.busyTicks = s.totalTicks - v[3] - v[4];
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  s.selfSeconds = double(self.ru_utime.tv_sec + self.ru_stime.tv_sec) + 1e-6 * double(self.ru_utime.tv_usec + self.ru_stime.tv_usec);
  const double tick = double(sysconf(_SC_CLK_TCK));
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] < '0' || name[0] > '9') continue;
    if (!isDisplayServer(firstLine(e.path().string() + "/comm"))) continue;
    // /proc/PID/stat: utime and stime are fields 14 and 15, after the command in parentheses.
    const std::string line = firstLine(e.path().string() + "/stat");
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    uint64_t utime = 0, stime = 0;
    for (int i = 3; i <= 13 && rest >> field; ++i) {
    }
    if (rest >> utime >> stime) s.displaySeconds += double(utime + stime) / tick;
  }
  s.ok = s.totalTicks > 0;
  return s;
}

void BusyWatch::start() {
  loadBefore_ = loadAverage();
  start_ = sample();
}

void BusyWatch::finish(FpsMachine& m) const {
  m.loadBefore = loadBefore_;
  m.loadAfter = loadAverage();
  const Sample end = sample();
  std::string why;
  const bool measured = start_.ok && end.ok && end.totalTicks > start_.totalTicks;
  if (measured) {
    const double tick = double(sysconf(_SC_CLK_TCK));
    const double cpus = double(end.totalTicks - start_.totalTicks) / tick;  // CPU-seconds the machine had
    const double busy = double(end.busyTicks - start_.busyTicks) / tick;
    const double display = std::max(0.0, end.displaySeconds - start_.displaySeconds);
    const double self = end.selfSeconds - start_.selfSeconds;
    m.othersCpu = std::clamp((busy - self - display) / cpus, 0.0, 1.0);
    m.displayServerCpu = std::clamp(display / cpus, 0.0, 1.0);
    if (*m.othersCpu > kBusyShare) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "other processes used %.0f %% of the CPUs during the run", *m.othersCpu * 100.0);
      why = buf;
    }
  }
  // The load average only where the CPU time of others could not be measured: it decays over a
  // minute and counts crowdlab's own run just before (a second run right after a first read busy).
  const long threads = sysconf(_SC_NPROCESSORS_ONLN);
  if (!measured && loadBefore_ && threads > 0 && *loadBefore_ > kBusyLoadPerThread * double(threads)) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "load average %.2f before the run on %ld hardware threads", *loadBefore_, threads);
    why += (why.empty() ? "" : "; ") + std::string(buf);
  }
  m.busy = !why.empty();
  m.busyWhy = why;
}

}  // namespace app
