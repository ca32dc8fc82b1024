// cucc-rewrite IN.cu NAME: print IN.cu with the few changes g++ needs, keeping every line where
// it was (the output starts with #line 1 "NAME"). Everything else is copied byte for byte.
//   k<<<g, b, smem, st>>>(args)  ->  ::cucc::Launch(g, b, smem, st).go("k", __FILE__, __LINE__,
//                                      [&](auto... cucc_args) { k(cucc_args...); })(args)
//   extern __shared__ T s[];      ->  T *s = (T *)::cucc::dynamic_smem;   (a #define at file scope)
//   volatile T *p                 ->  ::cucc::vptr<T> p   (warp-synchronous lockstep, see README)
//   __shared__ T a[N], b[M];      ->  the same, then: CUCC_SHARED(a); CUCC_SHARED(b);
//                                     (cuda_runtime.h: registered with the worker, poisoned
//                                     before each block)
// It works in two steps. A lexer (rewrite_lex.h) cuts the file into tokens that keep their
// exact text: comments, string and character literals (prefixes, raw strings), numbers (1'000,
// 0x1.8p+3), preprocessor lines (verbatim, except that the body of a #define is lexed as code:
// a launch in a macro is rewritten too), punctuation. Then the rewriter walks the tokens with a
// model of brackets: a launch ends at the first `>>>` at bracket depth 0 after its `<<<`, and
// its kernel is the expression right before the `<<<`, walked backwards over names, `::`,
// template argument lists (a `>` inside parentheses is an operator) and a parenthesised
// expression. No state outside the Lexer and Rewriter objects.
// A replacement keeps the newlines of the text it replaces, so lines stay where they were.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "rewrite_lex.h"

namespace {

using namespace cucc_rewrite;

std::string trim(const std::string &s)
{
    size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
    return a == none ? "" : s.substr(a, b - a + 1);
}
std::string newlines(const std::string &s)
{
    size_t n = 0;
    for (char c : s)
        n += c == '\n';
    return std::string(n, '\n');
}

// ---- The rewriter: the tokens in order, to `out`, with the replacements.
struct Rewriter {
    const std::string &src;
    const std::vector<Token> &tok;
    std::string out;
    std::vector<size_t> out_at; // where each token's text starts in `out`
    int depth = 0;              // of braces outside #define: 0 is file scope
    int pp_depth = 0;           // of braces in the current #define's body, added to depth there
    size_t poison_after = none; // the `;` that ends a function's __shared__ declaration
    std::string poison;
    Rewriter(const std::string &src, const std::vector<Token> &tok) : src(src), tok(tok) {}

    size_t size() const { return tok.size(); }
    std::string text(size_t a, size_t b) const // tokens [a, b)
    {
        return a < b ? src.substr(tok[a].begin, tok[b - 1].end - tok[a].begin) : "";
    }
    std::string text(size_t t) const { return text(t, t + 1); }
    bool is(size_t t, const char *s) const // a punctuation or a name, exactly s
    {
        return t < size() && (tok[t].kind == Kind::Punct || tok[t].kind == Kind::Ident) &&
               src.compare(tok[t].begin, tok[t].end - tok[t].begin, s) == 0;
    }
    bool blank(size_t t) const
    {
        return tok[t].kind == Kind::Space || tok[t].kind == Kind::Comment;
    }
    int bracket(size_t t) const // +1 opens, -1 closes a (), [] or {}; 0 otherwise
    {
        return is(t, "(") || is(t, "[") || is(t, "{")   ? 1
               : is(t, ")") || is(t, "]") || is(t, "}") ? -1
                                                        : 0;
    }
    // Scanning forward from token t for the end of its construct: token k is past the end (t
    // in a #define, k after it), or aside (t in code, k a directive or a #define between).
    bool past(size_t t, size_t k) const { return k >= size() || (tok[t].pp && !tok[k].pp); }
    bool aside(size_t t, size_t k) const
    {
        return !tok[t].pp && (tok[k].pp || tok[k].kind == Kind::Directive);
    }

    // The `<` that opens the template argument list that ends at the `>` q, or the `(` of the
    // `)` q; none if unbalanced. Inside (), [] and {} a `<` or `>` is an operator: k<(3 > 2)>.
    size_t match_back(size_t q) const
    {
        const bool angle = is(q, ">");
        int b = 0, a = 0;
        for (size_t k = q + 1; k-- > 0;) {
            if (tok[k].pp != tok[q].pp)
                return none;
            if (int d = bracket(k); d < 0) {
                b++;
            } else if (d > 0) {
                if (--b < 0)
                    return none;
                if (b == 0 && !angle)
                    return is(k, "(") ? k : none;
            } else if (b == 0 && angle && is(k, ">")) {
                a++;
            } else if (b == 0 && angle && is(k, "<") && --a == 0) {
                return k;
            } else if (b == 0 && is(k, ";")) {
                return none;
            }
        }
        return none;
    }
    // The first token of the kernel expression that ends before token e: [ns::]name[<args>],
    // repeated after `::` (A<int>::k, ns::template k<T>), or (expr): no spaces between parts.
    size_t kernel_start(size_t e) const
    {
        size_t s = e;
        for (;;) {
            if (s > 0 && (is(s - 1, ">") || is(s - 1, ")"))) {
                size_t m = match_back(s - 1);
                if (m == none)
                    break;
                s = m;
            }
            if (s > 0 && tok[s - 1].kind == Kind::Ident)
                s--;
            if (s > 2 && tok[s - 1].kind == Kind::Space && is(s - 2, "template") && is(s - 3, "::"))
                s -= 3;
            else if (s > 0 && is(s - 1, "::"))
                s--;
            else
                break;
        }
        return s;
    }
    // k<<<config>>>(args): t is the `<<<`. Returns the token after `>>>`, or 0 to copy it.
    size_t launch(size_t t)
    {
        size_t c = t + 1; // the first `>` of the `>>>` at bracket depth 0
        for (int d = 0;; c++) {
            if (past(t, c + 2))
                return 0;
            if (aside(t, c))
                continue;
            if (d == 0 && is(c, ">") && is(c + 1, ">") && is(c + 2, ">") &&
                tok[c].end == tok[c + 1].begin && tok[c + 1].end == tok[c + 2].begin)
                break;
            if ((d += bracket(c)) < 0)
                return 0;
        }
        size_t e = t; // the kernel is [s, e); what lies between it and <<< keeps its newlines
        while (e > 0 && blank(e - 1))
            e--;
        const size_t s = kernel_start(e);
        const std::string kernel = out.substr(out_at[s], out_at[e] - out_at[s]);
        const std::string between = newlines(out.substr(out_at[e]));
        std::string name; // the kernel's text with each run of whitespace one space
        for (char ch : kernel)
            if (!isspace((unsigned char)ch) || (!name.empty() && name.back() != ' '))
                name += isspace((unsigned char)ch) ? ' ' : ch;
        out.resize(out_at[s]);
        out += between + "::cucc::Launch(" + text(t + 1, c) + ").go(\"" + name +
               "\", __FILE__, __LINE__, [&](auto... cucc_args) { " + kernel + "(cucc_args...); })";
        return c + 3;
    }

    // extern [__align__(n)] __shared__ [__align__(n)] T name[]; t is the `extern`.
    size_t extern_shared(size_t t)
    {
        size_t end = t + 1; // the `;`
        bool shared = false;
        for (; !is(end, ";"); end++) {
            if (past(t, end) || is(end, "{"))
                return 0;
            shared |= is(end, "__shared__");
        }
        if (!shared)
            return 0;
        std::string head; // without extern, __shared__, __align__(n), alignas(n): T name[
        for (size_t k = t + 1; k < end; k++) {
            if (is(k, "__align__") || is(k, "alignas")) {
                while (k < end && !is(k, "("))
                    k++;
                for (int d = 0; k < end && (d += bracket(k)) > 0;)
                    k++;
            } else if (!is(k, "__shared__")) {
                head += text(k);
            }
        }
        const size_t bracket_at = head.rfind('[');
        if (bracket_at == none)
            return 0;
        head = trim(head.substr(0, bracket_at));
        size_t n = head.size();
        while (n && ident_char(head[n - 1]))
            n--;
        const std::string name = head.substr(n), type = trim(head.substr(0, n));
        if (name.empty() || type.empty())
            return 0;
        const size_t line = out.rfind('\n') + 1; // at file scope, on a line of its own: a macro
        if (depth == 0 && !tok[t].pp && out.find_first_not_of(" \t\r", line) == none)
            out += "#define " + name + " ((" + type + " *)::cucc::dynamic_smem)";
        else
            out += type + " *" + name + " = (" + type + " *)::cucc::dynamic_smem;";
        out += newlines(text(t, end));
        return end + 1;
    }

    // [const] volatile T *  (T: names, ::, template arguments) -> ::cucc::vptr<[const] T >
    size_t volatile_pointer(size_t t)
    {
        size_t j = t + 1, words = 0;
        std::string type;
        auto skip_space = [&] {
            while (!past(t, j) && tok[j].kind == Kind::Space)
                j++;
        };
        for (skip_space(); !past(t, j); skip_space()) {
            if (tok[j].kind == Kind::Ident) {
                type += (words++ && ident_char(type.back()) ? " " : "") + text(j++);
            } else if (is(j, "::")) {
                type += "::", j++;
            } else if (is(j, "<") && words) {
                size_t k = j; // the matching `>`
                for (int a = 0, b = 0; !past(t, k); k++) {
                    b += bracket(k);
                    a += b == 0 ? is(k, "<") - is(k, ">") : 0;
                    if (a == 0 || b < 0)
                        break;
                }
                if (past(t, k) || !is(k, ">"))
                    return 0;
                type += text(j, k + 1), j = k + 1;
            } else {
                break;
            }
        }
        if (!words || past(t, j) || !is(j, "*"))
            return 0;
        size_t s = t; // `const volatile T *`: the const goes inside, vptr<const T>
        while (s > 0 && tok[s - 1].kind == Kind::Space)
            s--;
        if (s > 0 && is(s - 1, "const"))
            out.resize(out_at[s - 1]), type = "const " + type, t = s - 1;
        out += "::cucc::vptr<" + type + " > " + newlines(text(t, j));
        return j + 1;
    }

    // __shared__ T a[N], b[M];  in a function: register each name to be poisoned before each
    // block (static shared memory is otherwise left as the last block left it). Declarators are
    // split at commas outside brackets and template argument lists; none with an initialiser.
    void shared_decl(size_t t)
    {
        if (depth + (tok[t].pp ? pp_depth : 0) == 0)
            return;
        std::string names;
        size_t piece = t + 1, first_bracket = none;  // the declarator, its first [
        for (size_t k = t + 1, a = 0, b = 0;; k++) { // a: <>, b: brackets
            if (past(t, k))
                return;
            if (aside(t, k))
                continue;
            if (int d = bracket(k); d > 0) {
                if (b++ == 0 && a == 0 && first_bracket == none && is(k, "["))
                    first_bracket = k;
            } else if (d < 0) {
                if (b-- == 0)
                    return;
            } else if (b > 0) {
                continue;
            } else if (is(k, "<")) {
                a++;
            } else if (is(k, ">") && a > 0) {
                a--;
            } else if (a == 0 && is(k, "=")) {
                return;
            } else if (a == 0 && (is(k, ",") || is(k, ";"))) {
                size_t n = first_bracket == none ? k : first_bracket; // the name ends before
                while (n > piece && blank(n - 1))
                    n--;
                if (n > piece && tok[n - 1].kind == Kind::Ident)
                    names += " CUCC_SHARED(" + text(n - 1) + ");";
                piece = k + 1, first_bracket = none;
                if (is(k, ";")) {
                    poison_after = k, poison = names;
                    return;
                }
            }
        }
    }

    void run(const std::string &name)
    {
        out = "#line 1 \"" + name + "\"\n";
        out_at.assign(size() + 1, 0);
        for (size_t t = 0; t < size();) {
            out_at[t] = out.size();
            size_t next = 0;
            if (is(t, "extern"))
                next = extern_shared(t);
            else if (is(t, "volatile"))
                next = volatile_pointer(t);
            else if (is(t, "<<<"))
                next = launch(t);
            else if (is(t, "__shared__"))
                shared_decl(t);
            if (next) { // the replaced tokens: positions within bounds, never used
                for (size_t k = t + 1; k < next; k++)
                    out_at[k] = out.size();
                t = next;
                continue;
            }
            if (tok[t].kind == Kind::Directive)
                pp_depth = 0;
            (tok[t].pp ? pp_depth : depth) += is(t, "{") - is(t, "}");
            out += text(t);
            if (t++ == poison_after)
                out += poison;
        }
    }
};

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3)
        return fprintf(stderr, "usage: cucc-rewrite IN.cu NAME\n"), 2;
    std::ifstream f(argv[1], std::ios::binary);
    if (!f)
        return fprintf(stderr, "cucc: cannot read %s\n", argv[1]), 1;
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string src = ss.str();
    const std::vector<Token> tokens = Lexer(src).run();
    Rewriter r(src, tokens);
    r.run(argv[2]);
    fwrite(r.out.data(), 1, r.out.size(), stdout);
    return 0;
}
