// The theme switch of the site's own pages (the playground, the course, training,
// the learner guide): light, dark, or the system's, kept in localStorage. It sets the root's
// color-scheme, which the page's colours and its playgrounds (host-theme.js)
// follow; "system" leaves it to the page's <meta name="color-scheme">.
//
// A classic script in <head>, not a module: a module runs only once the page
// is parsed, and the kept choice must apply before the first paint, or a dark
// page would flash light. The block keeps its names out of the global scope.
{
  const KEY = "autograd-playground-theme";
  const CHOICES = ["system", "light", "dark"];

  const kept = () => {
    try {
      const choice = localStorage.getItem(KEY);
      return CHOICES.includes(choice) ? choice : "system";
    } catch {
      return "system"; // storage switched off
    }
  };

  const apply = (choice) => {
    document.documentElement.style.colorScheme = choice === "system" ? "" : choice;
  };

  apply(kept());

  // The switch, in the page's <p class="page-theme"></p>: a labelled select.
  const build = (holder) => {
    const label = Object.assign(document.createElement("label"), { htmlFor: "page-theme", textContent: "Theme" });
    const select = Object.assign(document.createElement("select"), { id: "page-theme" });
    for (const choice of CHOICES) {
      const name = choice[0].toUpperCase() + choice.slice(1);
      select.append(Object.assign(document.createElement("option"), { value: choice, textContent: name }));
    }
    holder.replaceChildren(label, " ", select);
    // Big enough for a finger on a touch screen, as the playground's buttons are.
    const touch = document.createElement("style");
    touch.textContent = "@media (pointer: coarse) { .page-theme select { min-height: 44px; } }";
    document.head.append(touch);
    return select;
  };

  // As soon as the page is parsed, before its module scripts run.
  document.addEventListener("readystatechange", () => {
    if (document.readyState !== "interactive") return;
    const select = build(document.querySelector(".page-theme"));
    select.value = kept();
    select.addEventListener("change", () => {
      apply(select.value);
      try {
        localStorage.setItem(KEY, select.value);
      } catch {
        // storage full or switched off: the choice holds until the page is left
      }
    });
    // Another tab of the site switched.
    addEventListener("storage", (event) => {
      if (event.key !== KEY) return;
      select.value = kept();
      apply(select.value);
    });
  });
}
