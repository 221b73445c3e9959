from django.contrib import admin

from webapp.conversations.models import Conversation, Message


class MessageInline(admin.TabularInline):
    model = Message
    extra = 0
    fields = ["role", "content", "run", "created_at"]
    readonly_fields = ["created_at"]


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    list_display = ["id", "title", "owner", "updated_at"]
    list_filter = ["owner"]
    search_fields = ["title", "owner__username"]
    inlines = [MessageInline]
