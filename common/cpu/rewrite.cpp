// cucc-rewrite IN.cu NAME: print IN.cu with the few changes g++ needs, keeping every line where
// it was (the output starts with #line 1 "NAME"). Comments, strings and characters are copied.
//   k<<<g, b, smem, st>>>(args)  ->  ::cucc::Launch(g, b, smem, st).go("k", __FILE__, __LINE__,
//                                      [&](auto... a) { k(a...); })(args)
//   extern __shared__ T s[];      ->  T *s = (T *)::cucc::dynamic_smem;   (a #define at file scope)
//   volatile T *p                 ->  ::cucc::vptr<T> p   (warp-synchronous lockstep, see README)
//   __shared__ T s[N];            ->  the same, then: CUCC_SHARED(s);  (cuda_runtime.h: registered
//                                     with the worker, poisoned before each block)
#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

static std::string src, out;
static size_t i;
static int depth;                            // of braces: 0 is file scope
static size_t poison_at = std::string::npos; // where a __shared__ declaration ends
static std::string poison;

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}
static size_t skip_space(size_t j)
{
    while (j < src.size() && isspace((unsigned char)src[j]))
        j++;
    return j;
}
static std::string trim(const std::string &s)
{
    size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}
static std::string newlines(const std::string &s)
{
    size_t n = 0;
    for (char c : s)
        n += c == '\n';
    return std::string(n, '\n');
}

// Copy a comment, string or character literal starting at i, if there is one.
static bool copy_literal()
{
    size_t j = i;
    if (src.compare(i, 2, "//") == 0) {
        j = src.find('\n', i);
    } else if (src.compare(i, 2, "/*") == 0) {
        j = src.find("*/", i + 2);
        if (j != std::string::npos)
            j += 2;
    } else if (src[i] == '"' || (src[i] == '\'' && !(i && ident_char(src[i - 1])))) { // not 1'000
        for (j = i + 1; j < src.size() && src[j] != src[i]; j++)
            if (src[j] == '\\')
                j++;
        j++;
    } else {
        return false;
    }
    if (j == std::string::npos || j > src.size())
        j = src.size();
    out.append(src, i, j - i);
    i = j;
    return true;
}

// k<<<...>>>: the kernel expression is what precedes <<< in the output (a name, maybe
// qualified, maybe with template arguments, or something in parentheses).
static void launch()
{
    size_t e = out.size();
    while (e && isspace((unsigned char)out[e - 1]))
        e--;
    size_t s = e;
    for (;;) {
        if (s && (out[s - 1] == '>' || out[s - 1] == ')')) {
            char close = out[s - 1], open = close == '>' ? '<' : '(';
            int d = 0;
            do {
                char c = out[--s];
                d += c == close ? 1 : c == open ? -1 : 0;
            } while (s && d);
        }
        while (s && ident_char(out[s - 1]))
            s--;
        if (s >= 2 && out[s - 1] == ':' && out[s - 2] == ':') {
            s -= 2;
            continue;
        }
        break;
    }
    std::string kernel = out.substr(s, e - s), name;
    out.resize(s);
    for (char c : kernel)
        if (!isspace((unsigned char)c) || (!name.empty() && name.back() != ' '))
            name += isspace((unsigned char)c) ? ' ' : c;
    size_t j = i + 3;
    int d = 0;
    for (; j < src.size(); j++) {
        char c = src[j];
        if (d == 0 && src.compare(j, 3, ">>>") == 0)
            break;
        d += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
    }
    out += "::cucc::Launch(" + src.substr(i + 3, j - i - 3) + ").go(\"" + name +
           "\", __FILE__, __LINE__, [&](auto... cucc_args) { " + kernel + "(cucc_args...); })";
    i = j + 3;
}

// extern [__align__(n)] __shared__ [__align__(n)] T name[];
static bool extern_shared()
{
    size_t end = src.find(';', i);
    if (end == std::string::npos)
        return false;
    std::string decl = src.substr(i, end - i), rest;
    if (decl.find("__shared__") == std::string::npos || decl.find('{') != std::string::npos)
        return false;
    for (size_t k = 6; k < decl.size();) { // drop extern, __shared__, __align__(..), alignas(..)
        size_t a = k;
        while (k < decl.size() && ident_char(decl[k]))
            k++;
        std::string w = decl.substr(a, k - a);
        if (w == "__align__" || w == "alignas") {
            int d = 0;
            k = decl.find('(', k);
            do
                d += (decl[k] == '(') - (decl[k] == ')');
            while (++k < decl.size() && d);
        } else if (w.empty()) {
            rest += decl[k++];
        } else if (w != "__shared__") {
            rest += w;
        }
    }
    size_t bracket = rest.rfind('[');
    if (bracket == std::string::npos)
        return false;
    std::string head = trim(rest.substr(0, bracket));
    size_t n = head.size();
    while (n && ident_char(head[n - 1]))
        n--;
    std::string name = head.substr(n), type = trim(head.substr(0, n));
    if (name.empty() || type.empty())
        return false;
    if (depth == 0 &&
        trim(out.substr(out.rfind('\n') + 1)).empty()) // at file scope, on its own line
        out += "#define " + name + " ((" + type + " *)::cucc::dynamic_smem)";
    else
        out += type + " *" + name + " = (" + type + " *)::cucc::dynamic_smem;";
    out += newlines(decl);
    i = end + 1;
    return true;
}

// __shared__ T name[..];  in a function: register `name` to be poisoned before each block
// (one declarator only; static shared memory is otherwise left as the last block left it)
static void shared_decl()
{
    size_t end = i;
    int d = 0;
    for (; end < src.size() && !(d == 0 && (src[end] == ';' || src[end] == ',' || src[end] == '='));
         end++)
        d += (src[end] == '[' || src[end] == '(') - (src[end] == ']' || src[end] == ')');
    if (depth == 0 || end >= src.size() || src[end] != ';')
        return;
    std::string decl = src.substr(i, end - i);
    size_t n = decl.find('[');
    if (n == std::string::npos)
        n = decl.size();
    while (n && isspace((unsigned char)decl[n - 1]))
        n--;
    size_t a = n;
    while (a && ident_char(decl[a - 1]))
        a--;
    if (a == n)
        return;
    std::string name = decl.substr(a, n - a);
    poison_at = end;
    poison = " CUCC_SHARED(" + name + ");";
}

// volatile T *  (T: words, ::, template arguments) -> ::cucc::vptr<T>
static bool volatile_pointer()
{
    size_t j = skip_space(i + 8), words = 0;
    std::string type;
    while (j < src.size()) {
        if (ident_char(src[j])) {
            size_t a = j;
            while (j < src.size() && ident_char(src[j]))
                j++;
            type += (words++ && ident_char(type.back()) ? " " : "") + src.substr(a, j - a);
        } else if (src.compare(j, 2, "::") == 0) {
            type += "::", j += 2;
        } else if (src[j] == '<' && words) {
            size_t a = j;
            int d = 0;
            do
                d += (src[j] == '<') - (src[j] == '>');
            while (++j < src.size() && d);
            type += src.substr(a, j - a);
        } else {
            break;
        }
        j = skip_space(j);
    }
    if (!words || j >= src.size() || src[j] != '*')
        return false;
    size_t e = out.size(); // `const volatile T *`: the const goes inside, vptr<const T>
    while (e && isspace((unsigned char)out[e - 1]))
        e--;
    if (e >= 5 && out.compare(e - 5, 5, "const") == 0 && (e == 5 || !ident_char(out[e - 6])))
        out.resize(e - 5), type = "const " + type;
    out += "::cucc::vptr<" + type + " > " + newlines(src.substr(i, j - i));
    i = j + 1;
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return fprintf(stderr, "usage: cucc-rewrite IN.cu NAME\n"), 2;
    std::ifstream f(argv[1], std::ios::binary);
    if (!f)
        return fprintf(stderr, "cucc: cannot read %s\n", argv[1]), 1;
    std::stringstream ss;
    ss << f.rdbuf();
    src = ss.str();
    out = "#line 1 \"" + std::string(argv[2]) + "\"\n";
    for (i = 0; i < src.size();) {
        if (copy_literal())
            continue;
        char c = src[i];
        if (ident_char(c) && !(i && ident_char(src[i - 1]))) {
            size_t j = i;
            while (j < src.size() && ident_char(src[j]))
                j++;
            std::string w = src.substr(i, j - i);
            if ((w == "extern" && extern_shared()) || (w == "volatile" && volatile_pointer()))
                continue;
            if (w == "__shared__")
                shared_decl();
            out += w;
            i = j;
        } else if (src.compare(i, 3, "<<<") == 0) {
            launch();
        } else {
            depth += (c == '{') - (c == '}');
            out += c;
            if (i++ == poison_at)
                out += poison;
        }
    }
    fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
