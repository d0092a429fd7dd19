import AccountTreeIcon from "@mui/icons-material/AccountTree";
import AnnouncementIcon from "@mui/icons-material/Announcement";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import CodeIcon from "@mui/icons-material/Code";
import ContactPhoneIcon from "@mui/icons-material/ContactPhone";
import DashboardIcon from "@mui/icons-material/Dashboard";
import MonitorHeartIcon from "@mui/icons-material/MonitorHeart";
import EventIcon from "@mui/icons-material/Event";
import FlashOnIcon from "@mui/icons-material/FlashOn";
import ForumIcon from "@mui/icons-material/Forum";
import HelpOutlineIcon from "@mui/icons-material/HelpOutline";
import ListIcon from "@mui/icons-material/ListAlt";
import LoyaltyIcon from "@mui/icons-material/Loyalty";
import BlockIcon from "@mui/icons-material/Block";
import PeopleIcon from "@mui/icons-material/People";
import PaymentsIcon from "@mui/icons-material/Payments";
import PsychologyIcon from "@mui/icons-material/Psychology";
import SettingsIcon from "@mui/icons-material/Settings";
import AssessmentIcon from "@mui/icons-material/Assessment";
import FactCheckIcon from "@mui/icons-material/FactCheck";
import SettingsSuggestIcon from "@mui/icons-material/SettingsSuggest";
import SchemaIcon from "@mui/icons-material/Schema";
import SyncAltIcon from "@mui/icons-material/SyncAlt";
import TaskIcon from "@mui/icons-material/TaskAlt";
import ViewKanbanIcon from "@mui/icons-material/ViewKanban";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import ContactsIcon from "@mui/icons-material/Contacts";
import CampaignIcon from "@mui/icons-material/Campaign";
import ChatIcon from "@mui/icons-material/Chat";
import type { ReactElement } from "react";

/** One icon per menu key of @atende/shared/domain/menu/menu. */
export const MENU_ICONS: Record<string, ReactElement> = {
  dashboard: <DashboardIcon />,
  supervisor: <MonitorHeartIcon />,
  tickets: <WhatsAppIcon />,
  quickMessages: <FlashOnIcon />,
  kanban: <ViewKanbanIcon />,
  todolist: <TaskIcon />,
  contacts: <ContactPhoneIcon />,
  schedules: <EventIcon />,
  tags: <LoyaltyIcon />,
  chats: <ForumIcon />,
  helps: <HelpOutlineIcon />,
  campaigns: <CampaignIcon />,
  contactLists: <ContactsIcon />,
  campaignsConfig: <SettingsSuggestIcon />,
  announcements: <AnnouncementIcon />,
  prompts: <PsychologyIcon />,
  queueIntegration: <SyncAltIcon />,
  flows: <SchemaIcon />,
  connections: <ChatIcon />,
  files: <AttachFileIcon />,
  queues: <AccountTreeIcon />,
  users: <PeopleIcon />,
  optOuts: <BlockIcon />,
  messagesApi: <CodeIcon />,
  financeiro: <PaymentsIcon />,
  settings: <SettingsIcon />,
  auditLogs: <FactCheckIcon />,
  reports: <AssessmentIcon />,
};

export const FALLBACK_MENU_ICON = <ListIcon />;
