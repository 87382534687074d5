from scoring.accounts.urls import urlpatterns as accounts_urlpatterns
from scoring.circles.urls import urlpatterns as circles_urlpatterns
from scoring.events.urls import urlpatterns as events_urlpatterns
from scoring.history.urls import urlpatterns as history_urlpatterns
from scoring.matches.urls import urlpatterns as matches_urlpatterns
from scoring.pages.urls import urlpatterns as pages_urlpatterns
from scoring.sharing.urls import urlpatterns as sharing_urlpatterns

app_name = "scoring"

# Each room's own URLs, in one namespace: home and the rules; the history, players' pages and the
# leaderboard; the match loop (players, setup, the board, hands, the outbox's endpoints); club
# nights; share links, export and import; circles, members and invites; the account's page,
# deleting it, signing up, the language.
urlpatterns = [
    *pages_urlpatterns,
    *history_urlpatterns,
    *matches_urlpatterns,
    *events_urlpatterns,
    *sharing_urlpatterns,
    *circles_urlpatterns,
    *accounts_urlpatterns,
]
