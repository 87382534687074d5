// "Show password" on the sign-up and login forms: the box shows what was typed while ticked.
// Hidden without JavaScript (the password stays hidden); shown here.
document.querySelectorAll(".show-password").forEach(function (tick) { tick.hidden = false; });
document.addEventListener("change", function (event) {
  var tick = event.target.closest && event.target.closest("[data-show-password]");
  var field = tick && document.getElementById(tick.dataset.showPassword);
  if (field) field.type = tick.checked ? "text" : "password";
});
