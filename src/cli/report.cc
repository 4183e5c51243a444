// Rendering of a BenchResult: the human table (times, throughput, memory, checks, verdict) and
// the JSON object. Both read the same struct, so they never disagree.
#include "cli/report.h"

#include <cstdarg>
#include <cstdio>

#include "cli/json.h"

namespace flashattn::cli {
namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  return buf;
}

const char* mask_name(const BenchConfig& c) {
  if (c.causal) return "causal";
  if (c.window_left >= 0 || c.window_right >= 0) return "window";
  return "non-causal";
}

void pass_row(std::ostream& out, const char* name, const PassResult& p, const char* memory_label) {
  if (!p.ran) return;
  out << format("  %-15s %10.2f %10.2f %9.3f %6zu  %13s%s %12s\n", name, p.median_ms, p.min_ms, p.tflops(),
                p.ms.size(), format_bytes(double(p.scratch_bytes)).c_str(), memory_label,
                format_bytes(double(p.peak_rss_bytes)).c_str());
}

void json_pass(JsonWriter& j, const char* name, const PassResult& p) {
  j.key(name);
  if (!p.ran) {
    j.null();
    return;
  }
  j.begin_object();
  j.field("ms_median", p.median_ms);
  j.field("ms_min", p.min_ms);
  j.field("ms", p.ms);
  j.field("runs", int64_t(p.ms.size()));
  j.field("flops", p.flops);
  j.field("tflops", p.tflops());
  j.field("gflops", p.tflops() * 1e3);
  j.field("scratch_bytes", uint64_t(p.scratch_bytes));
  j.field("peak_rss_bytes", uint64_t(p.peak_rss_bytes));
  j.field("baseline_rss_bytes", uint64_t(p.baseline_rss_bytes));
  j.end_object();
}

void json_impl(JsonWriter& j, const char* name, const ImplResult& r, bool naive) {
  j.key(name);
  if (!r.requested) {
    j.null();
    return;
  }
  j.begin_object();
  j.field("ran", r.skipped.empty());
  if (!r.skipped.empty()) j.field("skipped", r.skipped);
  if (!naive) {
    j.field("backend", r.backend);
    j.field("path", r.path);
  }
  j.field("threads", r.threads);
  if (naive) {
    j.field("score_buffer_bytes", uint64_t(r.score_bytes));
    j.field("other_buffer_bytes", uint64_t(r.other_bytes));
  }
  json_pass(j, "fwd", r.fwd);
  json_pass(j, "bwd", r.bwd);
  j.end_object();
}

}  // namespace

std::string format_bytes(double bytes) {
  if (bytes < 1024.0) return format("%.0f B", bytes);
  if (bytes < 1024.0 * 1024.0) return format("%.1f KiB", bytes / 1024.0);
  if (bytes < 1024.0 * 1024.0 * 1024.0) return format("%.1f MiB", bytes / (1024.0 * 1024.0));
  return format("%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
}

bool BenchResult::ok() const {
  for (const Comparison& c : comparisons)
    if (!c.ok()) return false;
  for (const Coverage& c : coverages)
    if (!c.ok()) return false;
  return true;
}

void print_text(const BenchResult& r, std::ostream& out) {
  const BenchConfig& c = r.config;
  out << format("flashattn bench: batch %d, seqlen %d (k %d), heads %d (kv %d), head_dim %d (v %d), %s, %s",
                c.batch, c.seqlen_q, c.sk(), c.num_heads, c.heads_kv(), c.head_dim, c.dv(), dtype_name(r.dtype),
                mask_name(c));
  if (c.window_left >= 0 || c.window_right >= 0) out << format(" (%d, %d)", c.window_left, c.window_right);
  if (c.softcap > 0) out << format(", softcap %g", c.softcap);
  if (c.alibi) out << ", alibi";
  if (c.dropout > 0) out << format(", dropout %g", c.dropout);
  out << "\n";
  out << format("device %s, %d threads", backend_name(r.backend), r.threads);
  if (r.flash.requested && r.flash.skipped.empty())
    out << format("; flashattn ran backend %s, path %s", r.flash.backend.c_str(), r.flash.path.c_str());
  out << "\n";
  out << format("FLOPs (FlashAttention's count%s): forward %.1f G", c.causal ? ", halved for causal" : "",
                r.fwd_flops / 1e9);
  if (c.backward) out << format(", backward %.1f G (2.5x)", r.bwd_flops / 1e9);
  out << "\n\n";

  out << format("  %-15s %10s %10s %9s %6s  %14s %12s\n", "", "median ms", "min ms", "TFLOP/s", "runs",
                "scratch", "peak RSS");
  pass_row(out, "flashattn fwd", r.flash.fwd, " ");
  pass_row(out, "flashattn bwd", r.flash.bwd, " ");
  pass_row(out, "naive fwd", r.naive.fwd, "*");
  pass_row(out, "naive bwd", r.naive.bwd, "*");
  if (r.naive.requested && !r.naive.skipped.empty()) out << "  naive: skipped: " << r.naive.skipped << "\n";
  out << "\n";

  if (r.flash.fwd.ran && r.naive.fwd.ran) {
    out << format("speed ours/naive: forward %.2fx", r.naive.fwd.median_ms / r.flash.fwd.median_ms);
    if (r.flash.bwd.ran && r.naive.bwd.ran)
      out << format(", backward %.2fx", r.naive.bwd.median_ms / r.flash.bwd.median_ms);
    out << "\n";
  }
  out << "memory: inputs + outputs " << format_bytes(double(r.io_bytes));
  if (r.naive.fwd.ran)
    out << format("; * naive: %d threads x %s x %d x %d x 4 B score buffers = %s", r.naive.threads,
                  c.backward ? "2" : "1", c.seqlen_q, c.sk(), format_bytes(double(r.naive.score_bytes)).c_str())
        << ", plus " << format_bytes(double(r.naive.other_bytes)) << " linear";
  out << "\n";
  if (!r.rss_reset) out << "note: peak RSS could not be reset per pass; it is the process's peak so far\n";
  out << "\n";

  out << "check against the double reference (pass: |err| <= tol * max(1, |ref|)):\n";
  for (const Comparison& k : r.comparisons)
    out << format("  %-9s %-4s %-22s max abs err %9.3g  scaled %9.3g  tol %.0e  %s\n", k.impl.c_str(),
                  k.what.c_str(), k.scope.c_str(), k.max_abs_err, k.max_scaled_err, k.tol,
                  k.ok() ? "ok" : (k.mismatched ? "FAIL (NaN or inf)" : "FAIL"));
  for (const char* impl : {"flashattn", "naive"}) {
    std::string names, failures;
    for (const Coverage& k : r.coverages) {
      if (k.impl != impl) continue;
      names += (names.empty() ? "" : ", ") + k.what;
      if (!k.ok())
        failures += format(" %s: %lld of %lld non-finite;", k.what.c_str(), (long long)k.nonfinite, (long long)k.count);
    }
    if (names.empty()) continue;
    out << format("  %-9s %s: every element written and finite (lse: or -inf): %s\n", impl, names.c_str(),
                  failures.empty() ? "ok" : ("FAIL" + failures).c_str());
  }
  for (const std::string& n : r.notes) out << "  note: " << n << "\n";
  out << (r.ok() ? "result: PASS\n" : "result: FAIL\n");
}

void print_json(const BenchResult& r, std::ostream& out) {
  const BenchConfig& c = r.config;
  JsonWriter j(out);
  j.begin_object();
  j.key("config");
  j.begin_object();
  j.field("batch", c.batch);
  j.field("seqlen_q", c.seqlen_q);
  j.field("seqlen_k", c.sk());
  j.field("heads", c.num_heads);
  j.field("heads_kv", c.heads_kv());
  j.field("head_dim", c.head_dim);
  j.field("head_dim_v", c.dv());
  j.field("dtype", dtype_name(r.dtype));
  j.field("causal", c.causal);
  j.field("window_left", c.window_left);
  j.field("window_right", c.window_right);
  j.field("softcap", double(c.softcap));
  j.field("alibi", c.alibi);
  j.field("dropout", double(c.dropout));
  j.field("backward", c.backward);
  j.field("device", backend_name(r.backend));
  j.field("threads", r.threads);
  j.field("seed", uint64_t(c.seed));
  j.end_object();
  j.field("fwd_flops", r.fwd_flops);
  j.field("bwd_flops", r.bwd_flops);
  j.field("io_bytes", uint64_t(r.io_bytes));
  j.field("rss_reset", r.rss_reset);
  json_impl(j, "flashattn", r.flash, false);
  json_impl(j, "naive", r.naive, true);
  j.key("checks");
  j.begin_array();
  for (const Comparison& k : r.comparisons) {
    j.begin_object();
    j.field("impl", k.impl);
    j.field("what", k.what);
    j.field("scope", k.scope);
    j.field("count", k.count);
    j.field("mismatched", k.mismatched);
    j.field("max_abs_err", k.max_abs_err);
    j.field("max_scaled_err", k.max_scaled_err);
    j.field("tol", k.tol);
    j.field("ok", k.ok());
    j.end_object();
  }
  for (const Coverage& k : r.coverages) {
    j.begin_object();
    j.field("impl", k.impl);
    j.field("what", k.what);
    j.field("scope", "coverage");
    j.field("count", k.count);
    j.field("nonfinite", k.nonfinite);
    j.field("ok", k.ok());
    j.end_object();
  }
  j.end_array();
  j.key("notes");
  j.begin_array();
  for (const std::string& n : r.notes) j.value(n);
  j.end_array();
  j.field("ok", r.ok());
  j.end_object();
  out << "\n";
}

}  // namespace flashattn::cli
